// SPDX-License-Identifier: BSL-1.0
// One setting of a program (settings.hpp gathers them in a table): a flag
// of a program whose settings are the struct S, with the value it takes,
// its help, how its text is checked and stored in S, how S's value is
// written back as the flag takes it, what it is (setting_role) and when it
// applies; and the builders of the usual kinds (whole, limit, decimal,
// one_of, toggle, output, input, custom).
#ifndef INTERLOCK_EXAMPLES_CLI_SETTING_HPP
#define INTERLOCK_EXAMPLES_CLI_SETTING_HPP

#include <cstdint>
#include <functional>
#include <iterator>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "output.hpp"
#include "values.hpp"

namespace cli {
/// What a setting is: it changes what a run measures (a CSV column), or
/// how far a run may go (--max-work: written back, no column), or how this
/// machine runs it (--jobs, --no-progress: neither, as the results are the
/// same), or names a file the program writes (neither), or is an axis: a
/// list whose every value a row of its own is run for, or a value whose
/// column the program places itself (written back; the program writes the
/// row's value in its column), or names a file the program reads (written
/// back as an absolute path, read from a configuration file relative to its
/// folder; no column).
enum class setting_role { result, control, local, output, axis, input };

template <class S>
struct setting {
  std::string flag;        // "--buffer-flits"
  std::string value_name;  // "N"; empty for a switch (no value; `key = true` in a file)
  std::string help;        // one paragraph; help() wraps it
  std::function<void(S&, const std::string&)> read;  // checks the text and stores it
  std::function<std::string(const S&)> write;        // S's value as the flag takes it
  setting_role role = setting_role::result;
  std::function<bool(const S&)> applies;  // empty: always
  std::string needs;                      // what applies() asks, for the refusal
  std::string default_text;               // --help's default; empty: write(S{})
  bool sub = false;                       // --help: indented under the setting before
  std::string required_for;               // non-empty: parse() refuses a run without it

  std::string key() const { return flag.substr(2); }
  std::string column() const {
    std::string c = key();
    for (char& ch : c)
      if (ch == '-') ch = '_';
    return c;
  }
  bool applies_to(const S& s) const { return !applies || applies(s); }

  /// Applies only where `when` holds; given elsewhere it is refused, saying
  /// it "applies only to " + `what`.
  setting& when(std::function<bool(const S&)> when, std::string what) {
    applies = std::move(when);
    needs = std::move(what);
    return *this;
  }
  setting& control() {
    role = setting_role::control;
    return *this;
  }
  setting& local() {
    role = setting_role::local;
    return *this;
  }
  setting& axis() {
    role = setting_role::axis;
    return *this;
  }
  setting& defaults(std::string text) {
    default_text = std::move(text);
    return *this;
  }
  setting& under() {
    sub = true;
    return *this;
  }
  /// parse() refuses a run that does not give it: "--flag: required (why)".
  setting& required(std::string why) {
    required_for = std::move(why);
    return *this;
  }
};

/// A setting with its flag, value name and help; read and write to fill in.
template <class S>
setting<S> named(std::string flag, std::string value_name, std::string help) {
  setting<S> x;
  x.flag = std::move(flag);
  x.value_name = std::move(value_name);
  x.help = std::move(help);
  return x;
}

// Builders: `get` is a generic lambda giving the member, for S and const S
// alike: [](auto& s) -> auto& { return s.model.buffer_flits; }.

/// A whole number in lo..hi.
template <class S, class Get>
setting<S> whole(std::string flag, std::string value_name, Get get, std::uint64_t lo,
                 std::uint64_t hi, std::string help) {
  setting<S> x = named<S>(flag, std::move(value_name), std::move(help));
  x.read = [flag, get, lo, hi](S& s, const std::string& v) {
    auto& m = get(s);
    m = static_cast<std::remove_reference_t<decltype(m)>>(number(flag, v, lo, hi));
  };
  x.write = [get](const S& s) { return std::to_string(static_cast<unsigned long long>(get(s))); };
  return x;
}

/// A limit: a whole number in lo..hi, or `none` (no limit: the member's
/// largest value, written back as `none`, its default).
template <class S, class Get>
setting<S> limit(std::string flag, std::string value_name, Get get, std::uint64_t lo,
                 std::uint64_t hi, std::string help) {
  setting<S> x = named<S>(flag, std::move(value_name) + "|none", std::move(help));
  x.read = [flag, get, lo, hi](S& s, const std::string& v) {
    auto& m = get(s);
    using T = std::remove_reference_t<decltype(m)>;
    m = v == "none" ? std::numeric_limits<T>::max() : static_cast<T>(number(flag, v, lo, hi));
  };
  x.write = [get](const S& s) {
    const auto m = get(s);
    return m == std::numeric_limits<decltype(m)>::max()
               ? std::string("none")
               : std::to_string(static_cast<unsigned long long>(m));
  };
  return x;
}

/// A real number in lo..hi, written as the shortest text that reads back.
template <class S, class Get>
setting<S> decimal(std::string flag, std::string value_name, Get get, double lo, double hi,
                   std::string help) {
  setting<S> x = named<S>(flag, std::move(value_name), std::move(help));
  x.read = [flag, get, lo, hi](S& s, const std::string& v) { get(s) = real(flag, v, lo, hi); };
  x.write = [get](const S& s) { return real_text(get(s)); };
  return x;
}

/// One of `allowed`.
template <class S, class Get>
setting<S> one_of(std::string flag, Get get, std::vector<std::string> allowed, std::string help) {
  std::string list;
  for (const std::string& a : allowed) list += (list.empty() ? "" : "|") + a;
  setting<S> x = named<S>(flag, list, std::move(help));
  x.read = [flag, get, allowed](S& s, const std::string& v) {
    std::string names;
    for (const std::string& a : allowed) {
      if (a == v) {
        get(s) = v;
        return;
      }
      names += (names.empty() ? "" : ", ") + a;
    }
    throw bad_input{flag + ": '" + v.substr(0, 80) + "'; allowed: " + names};
  };
  x.write = [get](const S& s) { return std::string(get(s)); };
  return x;
}

/// A switch: given, it sets the bool; `key = true|false` in a file.
template <class S, class Get>
setting<S> toggle(std::string flag, Get get, std::string help) {
  setting<S> x = named<S>(flag, "", std::move(help));
  x.read = [get](S& s, const std::string&) { get(s) = true; };
  x.write = [get](const S& s) { return std::string(get(s) ? "true" : "false"); };
  return x;
}

/// A file the program writes: never written back, never a column.
template <class S, class Get>
setting<S> output(std::string flag, Get get, std::string help) {
  setting<S> x = named<S>(flag, "FILE", std::move(help));
  x.read = [get](S& s, const std::string& v) { get(s) = v; };
  x.write = [get](const S& s) { return std::string(get(s)); };
  x.role = setting_role::output;
  return x;
}

/// A file the program reads: written back as an absolute path.
template <class S, class Get>
setting<S> input(std::string flag, Get get, std::string help) {
  setting<S> x = output<S>(std::move(flag), get, std::move(help));
  x.role = setting_role::input;
  return x;
}

/// Anything else: `read` checks and stores, `write` writes back.
template <class S>
setting<S> custom(std::string flag, std::string value_name, std::string help,
                  std::function<void(S&, const std::string&)> read,
                  std::function<std::string(const S&)> write) {
  setting<S> x = named<S>(flag, std::move(value_name), std::move(help));
  x.read = std::move(read);
  x.write = std::move(write);
  return x;
}

/// Appends `more` to `list` (a table's settings gathered from parts).
template <class S>
void append(std::vector<setting<S>>& list, std::vector<setting<S>> more) {
  list.insert(list.end(), std::make_move_iterator(more.begin()),
              std::make_move_iterator(more.end()));
}

}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_SETTING_HPP
