#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Foundation

// Foundation and the C library only: CodeCoverageTests compiles this file into a small
// instrumented program to see `redirectOwnProfile` work.

/// What an executable built for code coverage (`-profile-generate -profile-coverage-mapping`)
/// has, and its profile runtime, seen from inside.
package enum ProfileRuntime {
  /// Whether an executable has coverage instrumentation (the `__llvm_prf_cnts` and
  /// `__llvm_covmap` sections): `nil` when that cannot be told (not a 64-bit ELF file, as on
  /// macOS), and the run is then told by the profiles it writes, or does not.
  ///
  /// The profile runtime's symbols are hidden (`nm` shows `t __llvm_profile_write_file` in an
  /// executable that SwiftPM built with `--enable-code-coverage`), so `dlsym` cannot tell.
  package static func isInstrumented(executable: String) -> Bool? {
    guard let elf = ELFFile(path: executable) else { return nil }
    let names = Set(elf.sections.map(\.name))
    return names.contains("__llvm_prf_cnts") && names.contains("__llvm_covmap")
  }

  /// Makes an instrumented process write its own profile at exit to `path` (`/dev/null`, so
  /// that the coordinator leaves no `default.profraw` in the user's directory) instead of the
  /// file that `LLVM_PROFILE_FILE` named when it started, or `default.profraw`. The runtime
  /// created that file, empty, before `main`: it is removed when it is still empty.
  ///
  /// `false` when this process is not instrumented, or the runtime's functions cannot be
  /// found: by `dlsym`, else (Linux) in our executable's symbol table, where SwiftPM's
  /// executables have them as local symbols.
  @discardableResult
  package static func redirectOwnProfile(to path: String) -> Bool {
    typealias GetFilename = @convention(c) () -> UnsafePointer<CChar>?
    typealias SetFilename = @convention(c) (UnsafePointer<CChar>?) -> Void
    guard let get = runtimeFunction("__llvm_profile_get_filename"),
      let set = runtimeFunction("__llvm_profile_set_filename")
    else { return false }
    // A copy that the caller frees.
    let started = unsafeBitCast(get, to: GetFilename.self)().map { pointer in
      defer { free(UnsafeMutableRawPointer(mutating: pointer)) }
      return String(cString: pointer)
    }
    // The runtime copies the name; this copy is never freed, in case it did not.
    unsafeBitCast(set, to: SetFilename.self)(strdup(path))
    if let started, started != path,
      let size = (try? FileManager.default.attributesOfItem(atPath: started))?[.size] as? Int, size == 0
    {
      try? FileManager.default.removeItem(atPath: started)
    }
    return true
  }

  /// Writes this process's counts to its profile now and sets them to zero, so that a
  /// worker that dies later (a crash, a timeout's kill, `_exit`) has written what it ran
  /// before. Only right when the profile's name has `%m`: the runtime then adds to the file
  /// (here, and again at exit); without it, the write at exit replaces the file. `false`
  /// when this process is not instrumented or the write failed.
  @discardableResult
  package static func writeOwnProfile() -> Bool {
    typealias Write = @convention(c) () -> Int32
    typealias Reset = @convention(c) () -> Void
    guard let write = runtimeFunction("__llvm_profile_write_file"),
      let reset = runtimeFunction("__llvm_profile_reset_counters"),
      unsafeBitCast(write, to: Write.self)() == 0
    else { return false }
    unsafeBitCast(reset, to: Reset.self)()
    return true
  }

  /// The address of a function of the profile runtime in this process.
  static func runtimeFunction(_ name: String) -> UnsafeMutableRawPointer? {
    if let address = dlsym(dlopen(nil, RTLD_NOW), name) { return address }
    #if os(Linux)
      if let elf = ELFFile(path: "/proc/self/exe"), let value = elf.functionAddress(name),
        let header = elf.programHeaderAddress, let loaded = auxiliaryValue(3)  // AT_PHDR
      {
        // A position-independent executable is loaded at an offset: where the kernel put our
        // program headers, less where the file says they are.
        return UnsafeMutableRawPointer(bitPattern: UInt(value) &+ (UInt(loaded) &- UInt(header)))
      }
    #endif
    return nil
  }

  /// An entry of this process's auxiliary vector (`getauxval`, which Swift's Glibc module
  /// does not import), read from /proc/self/auxv: pairs of 64-bit type and value.
  static func auxiliaryValue(_ type: UInt64) -> UInt64? {
    guard let data = FileManager.default.contents(atPath: "/proc/self/auxv") else { return nil }
    let words = data.withUnsafeBytes { raw in (0..<raw.count / 8).map { raw.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self) } }
    return stride(from: 0, to: words.count - 1, by: 2).first { words[$0] == type }.map { words[$0 + 1] }
  }
}

// MARK: - ELF

/// The little that ``CodeCoverage`` reads of a 64-bit little-endian ELF file: its section
/// names, its program headers' address, and its symbol table.
///
/// Every process of the command asks whether its executable is instrumented as it starts, so
/// the file is mapped with `mmap` and only the pages read are loaded.
package struct ELFFile {
  package struct Section {
    package var name: String
    package var type: UInt32
    package var offset: Int
    package var size: Int
    package var link: Int
    var entrySize: Int
  }

  /// A file mapped read-only, unmapped when the last copy of its ``ELFFile`` goes.
  private final class Mapping {
    package let bytes: UnsafeRawBufferPointer

    package init?(path: String) {
      let descriptor = open(path, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { return nil }
      defer { close(descriptor) }
      var status = stat()
      guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size >= 64,
        let address = mmap(nil, Int(status.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0),
        address != MAP_FAILED
      else { return nil }
      bytes = UnsafeRawBufferPointer(start: address, count: Int(status.st_size))
    }

    deinit {
      munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }
  }

  private let mapping: Mapping
  let sections: [Section]
  /// The `PT_PHDR` segment's virtual address, if it has one.
  let programHeaderAddress: UInt64?

  package init?(path: String) {
    guard let mapping = Mapping(path: path) else { return nil }
    let data = mapping.bytes
    guard data[0] == 0x7F, data[1] == 0x45, data[2] == 0x4C, data[3] == 0x46,
      data[4] == 2, data[5] == 1  // 64-bit, little-endian
    else { return nil }
    self.mapping = mapping
    func integer(_ offset: Int, _ size: Int) -> UInt64? { Self.integer(in: data, at: offset, size: size) }
    guard let sectionsAt = integer(0x28, 8), let sectionSize = integer(0x3A, 2), let count = integer(0x3C, 2),
      let namesIndex = integer(0x3E, 2), let headersAt = integer(0x20, 8), let headerSize = integer(0x36, 2),
      let headerCount = integer(0x38, 2), sectionsAt < UInt64(data.count), headersAt < UInt64(data.count)
    else { return nil }
    var raw: [(name: Int, section: Section)] = []
    raw.reserveCapacity(Int(count))
    for index in 0..<Int(count) {
      let at = Int(sectionsAt) + index * Int(sectionSize)
      guard let name = integer(at, 4), let type = integer(at + 4, 4), let offset = integer(at + 24, 8),
        let size = integer(at + 32, 8), let link = integer(at + 40, 4), let entrySize = integer(at + 56, 8),
        offset <= UInt64(Int.max), size <= UInt64(Int.max), entrySize <= UInt64(Int.max)
      else { return nil }
      raw.append(
        (Int(name), Section(name: "", type: UInt32(type), offset: Int(offset), size: Int(size), link: Int(link), entrySize: Int(entrySize))))
    }
    guard Int(namesIndex) < raw.count else { return nil }
    let names = raw[Int(namesIndex)].section
    sections = raw.map { entry in
      var section = entry.section
      section.name = Self.string(in: data, at: names.offset &+ entry.name, end: names.offset &+ names.size)
      return section
    }
    var phdr: UInt64?
    for index in 0..<Int(headerCount) {
      let at = Int(headersAt) + index * Int(headerSize)
      if integer(at, 4) == 6 { phdr = integer(at + 16, 8) }  // PT_PHDR: p_vaddr
    }
    programHeaderAddress = phdr
  }

  /// A little-endian unsigned integer of `size` bytes at `offset`; `nil` past the end.
  private static func integer(in data: UnsafeRawBufferPointer, at offset: Int, size: Int) -> UInt64? {
    guard offset >= 0, offset <= data.count - size else { return nil }
    var value: UInt64 = 0
    for index in (0..<size).reversed() { value = value << 8 | UInt64(data[offset + index]) }
    return value
  }

  /// The NUL-terminated string at `offset`, cut at `end` and at the end of the file.
  private static func string(in data: UnsafeRawBufferPointer, at offset: Int, end: Int) -> String {
    let end = min(end, data.count)
    guard offset >= 0, offset < end else { return "" }
    let bytes = UnsafeRawBufferPointer(rebasing: data[offset..<end])
    return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
  }

  /// The value of a function symbol of `.symtab` named `name`: its address in the file's
  /// layout (add the load bias for where it is in memory).
  func functionAddress(_ name: String) -> UInt64? {
    guard let table = sections.first(where: { $0.type == 2 }), table.entrySize >= 24, table.link < sections.count
    else { return nil }
    let data = mapping.bytes
    let strings = sections[table.link]
    let wanted = Array(name.utf8)
    let tableEnd = min(table.offset &+ table.size, data.count)
    // Where the names may be read: the string table, within the file. Its offset and size
    // are the file's word, so they are added with `&+` and checked, never trusted.
    let stringsEnd = min(strings.offset &+ strings.size, data.count)
    for offset in stride(from: table.offset, to: tableEnd - 23, by: table.entrySize) {
      guard data[offset + 4] & 0xF == 2 else { continue }  // STT_FUNC
      guard let nameAt = Self.integer(in: data, at: offset, size: 4) else { continue }
      let start = strings.offset &+ Int(nameAt)
      guard start >= 0, start < stringsEnd - wanted.count,
        data[start + wanted.count] == 0,
        UnsafeRawBufferPointer(rebasing: data[start..<(start + wanted.count)]).elementsEqual(wanted)
      else { continue }
      return Self.integer(in: data, at: offset + 8, size: 8)
    }
    return nil
  }
}
