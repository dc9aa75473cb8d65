#ifndef CLIBYAML_SHIM_H
#define CLIBYAML_SHIM_H
// libyaml's public API (Debian: libyaml-dev; Homebrew: libyaml).
#include <yaml.h>
#endif
