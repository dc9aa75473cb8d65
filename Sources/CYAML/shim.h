#ifndef CYAML_SHIM_H
#define CYAML_SHIM_H
// libyaml's public API (Debian: libyaml-dev; Homebrew: libyaml).
#include <yaml.h>
#endif
