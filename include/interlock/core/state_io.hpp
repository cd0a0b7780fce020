// SPDX-License-Identifier: BSL-1.0
// interlock/core/state_io.hpp: saving a policy's state to bytes and restoring it, validated.
//
// A long simulation checkpoints: it writes what every arbiter, allocator and
// clock holds, and a later run, built with the same configuration, restores
// it and continues as if it had never stopped. Every stateful policy in the
// library offers one member that lists its state, used in both directions:
//
//   template <class Archive> void state(Archive& ar);
//
// It names an object (a four-character code, a name and a size) and then
// its fields in a fixed order, each with its wire width and, when restoring,
// the rule the value must meet:
//
//   ar.object("RRTH", "rr_thermometer", N);
//   ar.u64("rr_therm", therm_, state_rule{is_thermometer, "a thermometer code"});
//   ar.u8("epoch", epoch_, state_range{0, 1});
//
// state_writer appends the fields; state_reader reads them back and throws
// state_error, naming the byte offset, the object, the field, the value and
// what is allowed, for anything the policy could not have held: a value out
// of range, an object of another kind or size, a truncated buffer. The
// writer ignores the rules. Members that are policies themselves are
// listed by calling their state(ar) after the object's own fields.
//
// Contract
//   - save_state(x) returns the bytes of x's state; save_state(x, out)
//     appends them. The bytes begin with "ILST" and the format version (1),
//     then the objects; every field is little-endian, whatever the host.
//   - restore_state(x, data, size) restores from exactly those bytes; on any
//     error it throws state_error and leaves x unchanged (the state is read
//     into a copy). Bytes left over after the object are an error too.
//   - What is saved is what decisions change and the registers a run may
//     write (AGE_RR_SELECT, AGE_CLK_PERIOD); what a policy is built from (a
//     weight table, a shape, an iteration count) is the constructor's, and a
//     restore needs an object built the same way. Sizes are checked.
//   - Restoring then continuing gives the decisions of never having stopped;
//     the tests check it for every policy under random requests.
//   - The archives allocate (a std::vector grows); decision paths never
//     touch them.
//
// Example
//   interlock::round_robin_arbiter<8> a;
//   a.grant(0b1010);
//   const std::vector<std::uint8_t> bytes = interlock::save_state(a);
//   interlock::round_robin_arbiter<8> b;
//   interlock::restore_state(b, bytes.data(), bytes.size());
//   assert(a == b);
#ifndef INTERLOCK_CORE_STATE_IO_HPP
#define INTERLOCK_CORE_STATE_IO_HPP

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace interlock {

/// A state that cannot be restored: where, what, and what is allowed.
class state_error : public std::invalid_argument {
 public:
  state_error(std::size_t offset, std::string_view object, std::string_view field,
              std::string_view value, std::string_view allowed)
      : std::invalid_argument(compose(offset, object, field, value, allowed)),
        offset_(offset),
        object_(object),
        field_(field),
        value_(value),
        allowed_(allowed) {}

  /// The byte at which the offending field (or object) begins.
  std::size_t offset() const noexcept { return offset_; }
  const std::string& object() const noexcept { return object_; }
  const std::string& field() const noexcept { return field_; }
  const std::string& value() const noexcept { return value_; }
  const std::string& allowed() const noexcept { return allowed_; }

 private:
  static std::string compose(std::size_t offset, std::string_view object, std::string_view field,
                             std::string_view value, std::string_view allowed) {
    std::string text = "state, byte " + std::to_string(offset) + ": ";
    text.append(object).append(".").append(field).append(" = ").append(value);
    return text.append("; allowed: ").append(allowed);
  }

  std::size_t offset_;
  std::string object_;
  std::string field_;
  std::string value_;
  std::string allowed_;
};

/// A field's rule: lo <= value <= hi.
struct state_range {
  std::uint64_t lo;
  std::uint64_t hi;
  bool operator()(std::uint64_t v) const noexcept { return v >= lo && v <= hi; }
  std::string allowed() const { return std::to_string(lo) + ".." + std::to_string(hi); }
};

/// A field's rule: a predicate and its description.
template <class Predicate>
struct state_rule {
  Predicate holds;
  std::string_view text;
  template <class T>
  bool operator()(T v) const {
    return holds(v);
  }
  std::string allowed() const { return std::string(text); }
};
template <class Predicate>
state_rule(Predicate, std::string_view) -> state_rule<Predicate>;

namespace detail {
inline constexpr char state_magic[4] = {'I', 'L', 'S', 'T'};
inline constexpr std::uint8_t state_format_version = 1;

struct any_value {
  template <class T>
  bool operator()(T) const noexcept {
    return true;
  }
  std::string allowed() const { return "any"; }
};
}  // namespace detail

/// Appends a state's fields (see the contract above).
class state_writer {
 public:
  static constexpr bool loading = false;

  explicit state_writer(std::vector<std::uint8_t>& out) noexcept : out_(&out) {}

  void object(const char (&code)[5], std::string_view, std::uint64_t size) {
    out_->insert(out_->end(), code, code + 4);
    put(size, 4);
  }
  template <class T, class... Rule>
  void u8(std::string_view, const T& v, const Rule&...) {
    put(static_cast<std::uint64_t>(v), 1);
  }
  template <class T, class... Rule>
  void u16(std::string_view, const T& v, const Rule&...) {
    put(static_cast<std::uint64_t>(v), 2);
  }
  template <class T, class... Rule>
  void u32(std::string_view, const T& v, const Rule&...) {
    put(static_cast<std::uint64_t>(v), 4);
  }
  template <class T, class... Rule>
  void u64(std::string_view, const T& v, const Rule&...) {
    put(static_cast<std::uint64_t>(v), 8);
  }
  /// A signed 32-bit field, two's complement.
  template <class... Rule>
  void i32(std::string_view, const std::int32_t& v, const Rule&...) {
    put(static_cast<std::uint32_t>(v), 4);
  }
  /// A double, as its IEEE 754 bits.
  template <class... Rule>
  void f64(std::string_view, const double& v, const Rule&...) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    put(bits, 8);
  }
  template <class... Rule>
  void flag(std::string_view, const bool& v, const Rule&...) {
    put(v ? 1u : 0u, 1);
  }

  std::size_t offset() const noexcept { return out_->size(); }

 private:
  void put(std::uint64_t v, unsigned bytes) {
    for (unsigned b = 0; b < bytes; ++b) out_->push_back(static_cast<std::uint8_t>(v >> (8 * b)));
  }

  std::vector<std::uint8_t>* out_;
};

/// Reads a state's fields back, validating each (see the contract above).
class state_reader {
 public:
  static constexpr bool loading = true;

  state_reader(const std::uint8_t* data, std::size_t size) noexcept
      : data_(data), size_(data == nullptr ? 0 : size) {}

  /// The next object must be `code` of this size.
  void object(const char (&code)[5], std::string_view name, std::uint64_t size) {
    const std::size_t at = offset_;
    object_ = name;
    const std::string found = printable(take(4, "object code", name));
    if (found != std::string_view(code, 4))
      throw state_error(at, name, "object code", quote(found), quote(std::string(code, 4)));
    const std::uint64_t n = get(4, "size");
    if (n != size) throw state_error(at + 4, name, "size", std::to_string(n), std::to_string(size));
  }
  template <class T, class Rule = detail::any_value>
  void u8(std::string_view field, T& v, const Rule& rule = {}) {
    v = unsigned_field<T>(field, 1, rule);
  }
  template <class T, class Rule = detail::any_value>
  void u16(std::string_view field, T& v, const Rule& rule = {}) {
    v = unsigned_field<T>(field, 2, rule);
  }
  template <class T, class Rule = detail::any_value>
  void u32(std::string_view field, T& v, const Rule& rule = {}) {
    v = unsigned_field<T>(field, 4, rule);
  }
  template <class T, class Rule = detail::any_value>
  void u64(std::string_view field, T& v, const Rule& rule = {}) {
    v = unsigned_field<T>(field, 8, rule);
  }
  template <class Rule = detail::any_value>
  void i32(std::string_view field, std::int32_t& v, const Rule& rule = {}) {
    const std::size_t at = offset_;
    const std::uint64_t bits = get(4, field);
    const std::int64_t value = bits >= 0x80000000u ? static_cast<std::int64_t>(bits) - 0x100000000LL
                                                   : static_cast<std::int64_t>(bits);
    if (!rule(value)) throw state_error(at, object_, field, std::to_string(value), rule.allowed());
    v = static_cast<std::int32_t>(value);
  }
  template <class Rule = detail::any_value>
  void f64(std::string_view field, double& v, const Rule& rule = {}) {
    const std::size_t at = offset_;
    const std::uint64_t bits = get(8, field);
    double d = 0;
    std::memcpy(&d, &bits, sizeof d);
    if (!rule(d)) throw state_error(at, object_, field, std::to_string(d), rule.allowed());
    v = d;
  }
  void flag(std::string_view field, bool& v) {
    v = unsigned_field<unsigned>(field, 1, state_range{0, 1}) != 0;
  }

  std::size_t offset() const noexcept { return offset_; }
  std::size_t remaining() const noexcept { return size_ - offset_; }

  /// The format's header: "ILST" and the version.
  void header() {
    const std::string found = printable(take(4, "header", "state"));
    if (found != std::string_view(detail::state_magic, 4))
      throw state_error(0, "state", "header", quote(found), "\"ILST\" (an interlock state)");
    const std::uint64_t version = get(1, "version");
    if (version != detail::state_format_version)
      throw state_error(4, "state", "version", std::to_string(version),
                        std::to_string(detail::state_format_version));
  }

  /// Throws unless every byte has been read.
  void finish() const {
    if (offset_ != size_)
      throw state_error(offset_, object_, "end", std::to_string(size_ - offset_) + " more bytes",
                        "the end of the state");
  }

 private:
  template <class T, class Rule>
  T unsigned_field(std::string_view field, unsigned bytes, const Rule& rule) {
    static_assert(std::is_integral_v<T> || std::is_enum_v<T>, "a field is an integer");
    const std::size_t at = offset_;
    const std::uint64_t v = get(bytes, field);
    using U = std::conditional_t<std::is_enum_v<T>, std::underlying_type<T>, std::common_type<T>>;
    using limits = std::numeric_limits<typename U::type>;
    const bool fits = v <= static_cast<std::uint64_t>(limits::max());
    if (!fits || !rule(v)) {
      const std::string allowed =
          fits ? rule.allowed() : "0.." + std::to_string(static_cast<std::uint64_t>(limits::max()));
      throw state_error(at, object_, field, std::to_string(v), allowed);
    }
    return static_cast<T>(v);
  }

  const std::uint8_t* take(std::size_t bytes, std::string_view field, std::string_view object) {
    if (size_ - offset_ < bytes)
      throw state_error(offset_, object, field, "the end of the bytes",
                        std::to_string(bytes) + " more bytes");
    const std::uint8_t* p = data_ + offset_;
    offset_ += bytes;
    return p;
  }
  std::uint64_t get(unsigned bytes, std::string_view field) {
    const std::uint8_t* p = take(bytes, field, object_);
    std::uint64_t v = 0;
    for (unsigned b = 0; b < bytes; ++b) v |= static_cast<std::uint64_t>(p[b]) << (8 * b);
    return v;
  }
  static std::string printable(const std::uint8_t* p) {
    std::string s;
    for (int i = 0; i < 4; ++i) s += p[i] >= 0x20 && p[i] < 0x7f ? static_cast<char>(p[i]) : '?';
    return s;
  }
  static std::string quote(std::string s) { return '"' + s + '"'; }

  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t offset_ = 0;
  std::string object_ = "state";
};

/// Appends x's state, after the format's header, to `out`.
template <class T>
void save_state(const T& x, std::vector<std::uint8_t>& out) {
  out.insert(out.end(), detail::state_magic, detail::state_magic + 4);
  out.push_back(detail::state_format_version);
  state_writer w(out);
  // state() lists the fields in both directions; the writer only reads them.
  const_cast<T&>(x).state(w);
}

/// x's state as bytes.
template <class T>
std::vector<std::uint8_t> save_state(const T& x) {
  std::vector<std::uint8_t> out;
  save_state(x, out);
  return out;
}

/// Restores x from exactly `size` bytes written by save_state; throws
/// state_error and leaves x unchanged when they are not a state x could hold.
template <class T>
void restore_state(T& x, const std::uint8_t* data, std::size_t size) {
  state_reader r(data, size);
  r.header();
  T copy = x;
  copy.state(r);
  r.finish();
  x = std::move(copy);
}

template <class T>
void restore_state(T& x, const std::vector<std::uint8_t>& bytes) {
  restore_state(x, bytes.data(), bytes.size());
}

}  // namespace interlock

#endif  // INTERLOCK_CORE_STATE_IO_HPP
