// SPDX-License-Identifier: BSL-1.0
// A program's settings, each declared once: a setting_table<S> of the
// setting<S>s (setting.hpp) of a program whose settings are the struct S.
// It makes from them
//   - the parser: parse() is the whole argument loop (a preset, a
//     configuration file's FILE:LINE:COLUMN, each flag once, no empty value,
//     an unknown flag refused, a required setting missing refused, the
//     operand read: a word that is not a flag); read() takes one flag for a
//     program whose loop reads flags of its own; refuse_inapplicable()
//     refuses, after the loop, a setting given where it does not apply,
//     naming what it needs and where it was given;
//   - --help's lines (help()), wrapped, with each setting's default;
//   - the configuration as run (resolved()): `key` and value of every
//     result, control and input setting that applies (an input as an
//     absolute path), for --write-config, the echo and the JSON
//     configuration (json::object), read back by --config FILE;
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
#include <string>
#include <utility>
#include <vector>

#include "flags.hpp"
#include "output.hpp"
#include "setting.hpp"
#include "values.hpp"

namespace cli {

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

  /// A word that is not a flag (a program's NAME), read by `read` once;
  /// `name` is what --help and the refusals call it.
  setting_table& operand(std::string name, std::function<void(S&, const std::string&)> read) {
    operand_name_ = std::move(name);
    operand_ = std::move(read);
    return *this;
  }

  /// The argument loop of a program whose every flag is the table's: the
  /// flags of a preset (--preset NAME, with `presets`), of a configuration
  /// file (--config FILE) and of the command line read into `s`, each once;
  /// an unknown flag refused, the operand read; then a required setting
  /// missing refused, and refuse_inapplicable(). The flags are returned for
  /// the program's checks across settings and write_resolved().
  flags parse(int argc, char** argv, S& s, named_configs presets = nullptr) const {
    flags f(
        argc, argv, [this](const std::string& flag) { return is_switch(flag); }, presets,
        [this](const std::string& flag) {
          return has_role(flag, setting_role::input) || is_input(flag);
        });
    f.writes([this](const std::string& flag) { return has_role(flag, setting_role::output); });
    f.resolves_config();
    bool operand_read = false;
    f.for_each([&](const std::string& flag, const auto& value) {
      if (read(s, flag, value)) return;
      if (operand_ && !operand_read && flag.compare(0, 1, "-") != 0) {
        operand_(s, flag);
        operand_read = true;
        return;
      }
      throw bad_input{flag + ": unknown option (see --help)"};
    });
    if (operand_ && !operand_read) throw bad_input{"name " + operand_name_ + " (see --help)"};
    for (const setting<S>& x : list_)
      if (!x.required_for.empty() && !f.given(x.flag))
        throw bad_input{x.flag + ": required (" + x.required_for + ")"};
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

  /// The configuration as run: key and value of every result, axis,
  /// control and input setting that applies (an input's absolute path), in
  /// the table's order; but a setting left empty (no flag takes an empty
  /// value: a setting not given that has no default).
  std::vector<std::pair<std::string, std::string>> resolved(const S& s) const {
    std::vector<std::pair<std::string, std::string>> out;
    for (const setting<S>& x : list_) {
      if (!x.applies_to(s) || x.role == setting_role::local || x.role == setting_role::output)
        continue;
      const std::string v = x.write(s);
      if (!v.empty()) out.emplace_back(x.key(), x.role == setting_role::input ? absolute(v) : v);
    }
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
  bool has_role(const std::string& flag, setting_role role) const {
    const setting<S>* x = find(flag);
    return x != nullptr && x->role == role;
  }
  // Where `flag` was given: "FILE:LINE:COLUMN", "--preset NAME" or "".
  static std::string token_of(const flags& f, const std::string& flag) {
    for (const token& t : f.words())
      if (t.text == flag) return t.where;
    return std::string();
  }
  static bool from_preset(const flags& f, const std::string& flag) {
    return token_of(f, flag).rfind("--preset ", 0) == 0;
  }
  static std::string where(const flags& f, const std::string& flag) {
    const std::string at = token_of(f, flag);
    return at.empty() ? at : at + ": ";
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
  std::string operand_name_;
  std::function<void(S&, const std::string&)> operand_;
};

/// --help: `usage` (its lines), `about` (paragraphs), the table's option
/// lines, then `closing` (the exit status).
template <class S>
std::string help_page(const std::string& usage, const std::string& about,
                      const setting_table<S>& table, const std::string& closing) {
  return usage + "\n" + about + "\noptions\n" + table.help() + "\n" + closing;
}

}  // namespace cli

#endif  // INTERLOCK_EXAMPLES_CLI_SETTINGS_HPP
