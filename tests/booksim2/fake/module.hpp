// SPDX-License-Identifier: BSL-1.0
// tests/booksim2/fake/module.hpp: the part of BookSim2's Module interface that
// examples/integrations/booksim2 uses, written for interlock's tests (no BookSim2 code): a
// name under a parent, and Error, which here throws instead of exiting.
#ifndef INTERLOCK_TESTS_BOOKSIM2_FAKE_MODULE_HPP
#define INTERLOCK_TESTS_BOOKSIM2_FAKE_MODULE_HPP

#include <stdexcept>
#include <string>

class Module {
 public:
  Module(Module* parent, const std::string& name)
      : name_(name), full_name_(parent ? parent->FullName() + "/" + name : name) {}
  virtual ~Module() = default;
  const std::string& Name() const { return name_; }
  const std::string& FullName() const { return full_name_; }
  void Error(const std::string& message) const {
    throw std::runtime_error("Error in " + full_name_ + " : " + message);
  }

 private:
  std::string name_, full_name_;
};

#endif  // INTERLOCK_TESTS_BOOKSIM2_FAKE_MODULE_HPP
