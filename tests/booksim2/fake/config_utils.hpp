// SPDX-License-Identifier: BSL-1.0
// tests/booksim2/fake/config_utils.hpp: the part of BookSim2's Configuration
// that examples/integrations/booksim2 reads, written for interlock's tests
// (no BookSim2 code): string and integer fields by name, and the one
// configuration of the run (GetTheConfig, the last one constructed). An
// unknown field throws, where BookSim2 stops the run.
#ifndef INTERLOCK_TESTS_BOOKSIM2_FAKE_CONFIG_UTILS_HPP
#define INTERLOCK_TESTS_BOOKSIM2_FAKE_CONFIG_UTILS_HPP

#include <map>
#include <stdexcept>
#include <string>

class Configuration {
 public:
  Configuration() { current() = this; }
  ~Configuration() {
    if (current() == this) current() = nullptr;
  }
  Configuration(const Configuration&) = delete;
  Configuration& operator=(const Configuration&) = delete;

  void Assign(const std::string& field, const std::string& value) { str_[field] = value; }
  void Assign(const std::string& field, int value) { int_[field] = value; }
  std::string GetStr(const std::string& field) const {
    const auto it = str_.find(field);
    if (it == str_.end()) throw std::runtime_error("Unknown string field: " + field);
    return it->second;
  }
  int GetInt(const std::string& field) const {
    const auto it = int_.find(field);
    if (it == int_.end()) throw std::runtime_error("Unknown integer field: " + field);
    return it->second;
  }
  static Configuration* GetTheConfig() { return current(); }

 private:
  static Configuration*& current() {
    static Configuration* c = nullptr;
    return c;
  }
  std::map<std::string, std::string> str_;
  std::map<std::string, int> int_;
};

#endif  // INTERLOCK_TESTS_BOOKSIM2_FAKE_CONFIG_UTILS_HPP
