// SPDX-License-Identifier: BSL-1.0
// The command-line layer every program of examples/ shares, one facility per
// header, all included here:
//   - values.hpp: bad_input, number(), real(), split(), names(): values
//     checked against a range or a list of names, or refused naming the flag,
//     the text and what is allowed; numbers in plain decimal notation only;
//   - flags.hpp: the argument loop over a configuration file (--config) and
//     the command line, each flag at most once;
//   - network_flags.hpp: --radix, --wrap and --slices;
//   - output.hpp: output files whose every write is checked, format(),
//     real_text();
//   - json.hpp: --json documents (strings, numbers, objects, CSV rows);
//   - table_output.hpp: an experiment's table as --csv and --json;
//   - run_tool.hpp: main's exit status (0 or the run's, 2 bad input, 3 a
//     failure, a failed write among them), --help and --version.
// Beside them, included by the programs that need them: routing_flags.hpp
// (dimension orders, the T3E's VC tables), prefetch_flag.hpp (the network
// model's --prefetch), catalogue.hpp (every name the programs accept,
// with its parameters: interlock_info's list) and settings.hpp (a
// program's settings declared once, setting.hpp each: parser, help,
// configuration, columns).
#ifndef INTERLOCK_EXAMPLES_CLI_HPP
#define INTERLOCK_EXAMPLES_CLI_HPP

#include "flags.hpp"
#include "json.hpp"
#include "network_flags.hpp"
#include "output.hpp"
#include "run_tool.hpp"
#include "table_output.hpp"
#include "values.hpp"

#endif  // INTERLOCK_EXAMPLES_CLI_HPP
