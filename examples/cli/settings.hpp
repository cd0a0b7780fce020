// SPDX-License-Identifier: BSL-1.0
// A program's settings, each declared once. A setting<S> is a flag of a
// program whose settings are the struct S: the value it takes, its help,
// how its text is checked and stored in S, how S's value is written back as
// the flag takes it, what it is (a result setting, a control, an output
// path) and when it applies. A setting_table<S> makes from them
//   - the parser: parse() is the whole argument loop (a preset, a
//     configuration file's FILE:LINE:COLUMN, each flag once, no empty value,
//     an unknown flag refused); read() takes one flag for a program whose
//     loop reads flags of its own; refuse_inapplicable() refuses, after the
//     loop, a setting given where it does not apply, naming what it needs
//     and where it was given;
//   - --help's lines (help()), wrapped, with each setting's default;
//   - the configuration as run (resolved()): `key` and value of every
//     result and control setting that applies, for --write-config, the echo
//     and the JSON configuration (json::object), read back by --config FILE;
//   - the CSV configuration columns (columns(), values()): every result
//     setting, the key with '_' for '-', empty where it does not apply, a
//     list's commas written as spaces; an axis (a list the program runs a
//     row per value of, or a value whose column the program places itself)
//     is written back but is no column here, as the program writes it.
// The configuration key and JSON key are the flag without its dashes.
#ifndef INTERLOCK_EXAMPLES_CLI_SETTINGS_HPP
#define INTERLOCK_EXAMPLES_CLI_SETTINGS_HPP

#include <cstddef>
#include <cstdint>
#include <functional>
#include <iterator>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "flags.hpp"
#include "output.hpp"
#include "values.hpp"

namespace cli {

/// What a setting is: it changes what a run measures (a CSV column), or
/// how far a run may go (--max-work: written back, no column), or how this
/// machine runs it (--jobs, --no-progress: neither, as the results are the
/// same), or names a file the program writes (neither), or is an axis: a
/// list whose every value a row of its own is run for, or a value whose
/// column the program places itself (written back; the program writes the
/// row's value in its column).
enum class setting_role { result, control, local, output, axis };

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

template <class S>
class setting_table {
 public:
  explicit setting_table(std::vector<setting<S>> list) : list_(std::move(list)) {}

  const std::vector<setting<S>>& list() const noexcept { return list_; }
  const setting<S>* find(const std::string& flag) const {
    for (const setting<S>& x : list_)
      if (x.flag == flag) return &x;
    return nullptr;
  }
  /// Whether `flag` is one of the table's switches.
  bool is_switch(const std::string& flag) const {
    const setting<S>* x = find(flag);
    return x != nullptr && x->value_name.empty();
  }

  /// In cli::flags' loop: reads `flag` into `s` if it is the table's (true),
  /// else false, leaving it to the program.
  template <class Value>
  bool read(S& s, const std::string& flag, const Value& value) const {
    const setting<S>* x = find(flag);
    if (x == nullptr) return false;
    x->read(s, x->value_name.empty() ? std::string() : value());
    return true;
  }

  /// The argument loop of a program whose every flag is the table's: the
  /// flags of a preset (--preset NAME, with `presets`), of a configuration
  /// file (--config FILE) and of the command line read into `s`, each once;
  /// an unknown flag refused; then refuse_inapplicable(). The flags are
  /// returned for the program's checks across settings and write_resolved().
  flags parse(int argc, char** argv, S& s, named_configs presets = nullptr) const {
    flags f(
        argc, argv, [this](const std::string& flag) { return is_switch(flag); }, presets);
    f.resolves_config();
    f.for_each([&](const std::string& flag, const auto& value) {
      if (!read(s, flag, value)) throw bad_input{flag + ": unknown option (see --help)"};
    });
    refuse_inapplicable(s, f);
    return f;
  }

  /// After the loop: a setting given (in `f`) that does not apply to `s` is
  /// refused, with FILE:LINE:COLUMN when it came from a file; but a preset's
  /// (a preset gives its values whatever else is chosen) and the flags of
  /// `elsewhere`, which a driver read as its own.
  void refuse_inapplicable(const S& s, const flags& f,
                           const std::vector<std::string>& elsewhere = {}) const {
    for (const setting<S>& x : list_) {
      bool theirs = false;
      for (const std::string& e : elsewhere) theirs = theirs || e == x.flag;
      if (!theirs && f.given(x.flag) && !x.applies_to(s) && !from_preset(f, x.flag))
        throw bad_input{where(f, x.flag) + x.flag + ": applies only to " + x.needs};
    }
  }
  /// bad_input about `flag`, at FILE:LINE:COLUMN when a file gave it.
  static bad_input refusal(const flags& f, const std::string& flag, const std::string& message) {
    return bad_input{where(f, flag) + message};
  }

  /// The configuration as run: key and value of every result, axis and
  /// control setting that applies, in the table's order.
  std::vector<std::pair<std::string, std::string>> resolved(const S& s) const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const setting<S>& x : list_)
      if ((x.role == setting_role::result || x.role == setting_role::control ||
           x.role == setting_role::axis) &&
          x.applies_to(s))
        out.emplace_back(x.key(), x.write(s));
    return out;
  }
  /// The CSV columns of the result settings, comma-separated.
  std::string columns() const {
    std::string out;
    for (const setting<S>& x : list_)
      if (x.role == setting_role::result) out += (out.empty() ? "" : ",") + x.column();
    return out;
  }
  /// Their values for `s` (empty where a setting does not apply).
  std::string values(const S& s) const {
    std::string out;
    bool first = true;
    for (const setting<S>& x : list_) {
      if (x.role != setting_role::result) continue;
      std::string v = x.applies_to(s) ? x.write(s) : std::string();
      for (char& c : v)
        if (c == ',') c = ' ';
      out += (first ? "" : ",") + v;
      first = false;
    }
    return out;
  }

  /// --help's lines for the settings from `first` up to (not including)
  /// `last` (flags; empty: to the end): "  --flag VALUE  help (default X)",
  /// the help wrapped at 79 columns from column 25.
  std::string help(const std::string& first = "", const std::string& last = "") const {
    std::string out;
    bool on = first.empty();
    const S defaults{};
    for (const setting<S>& x : list_) {
      if (x.flag == first) on = true;
      if (!last.empty() && x.flag == last) break;
      if (!on) continue;
      std::string text = x.help;
      const std::string d = !x.default_text.empty() ? x.default_text
                            : x.value_name.empty()  ? std::string()
                                                    : x.write(defaults);
      if (!d.empty() && d != "-") text += " (default " + d + ")";
      std::string head = std::string(x.sub ? "    " : "  ") + x.flag;
      if (!x.value_name.empty()) head += " " + x.value_name;
      out += wrapped(head, text);
    }
    return out;
  }

 private:
  static bool from_preset(const flags& f, const std::string& flag) {
    for (const token& t : f.words())
      if (t.text == flag) return t.where.rfind("--preset ", 0) == 0;
    return false;
  }
  static std::string where(const flags& f, const std::string& flag) {
    for (const token& t : f.words())
      if (t.text == flag) return t.where.empty() ? std::string() : t.where + ": ";
    return std::string();
  }
  static std::string wrapped(const std::string& head, const std::string& text) {
    constexpr std::size_t column = 25, width = 79;
    std::string out = head;
    // The first line: the head, then the text from `column` (or on the next
    // line when the head reaches it).
    std::size_t at = head.size();
    if (at + 1 > column) {
      out += "\n";
      at = 0;
    }
    out += std::string(column - at, ' ');
    std::size_t used = column;
    std::size_t i = 0;
    while (i < text.size()) {
      std::size_t end = text.find(' ', i);
      if (end == std::string::npos) end = text.size();
      const std::string word = text.substr(i, end - i);
      if (used > column && used + 1 + word.size() > width) {
        out += "\n" + std::string(column, ' ');
        used = column;
      }
      if (used > column) {
        out += " ";
        ++used;
      }
      out += word;
      used += word.size();
      i = end + 1;
    }
    return out + "\n";
  }

  std::vector<setting<S>> list_;
};

}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_SETTINGS_HPP
