// SPDX-License-Identifier: BSL-1.0
// tests/booksim2/fake/arbiter.hpp: BookSim2's Arbiter interface as its
// documentation describes it, written for interlock's tests (no BookSim2
// code): requests stored per input with an id and a priority, the winner in
// _selected, Clear forgetting the requests.
#ifndef INTERLOCK_TESTS_BOOKSIM2_FAKE_ARBITER_HPP
#define INTERLOCK_TESTS_BOOKSIM2_FAKE_ARBITER_HPP

#include <stdexcept>
#include <string>
#include <vector>

#include "module.hpp"

class Arbiter : public Module {
 protected:
  struct entry_t {
    bool valid = false;
    int id = 0;
    int pri = 0;
  };
  std::vector<entry_t> _request;
  int _size;
  int _selected = -1;

 public:
  int _num_reqs = 0;
  Arbiter(Module* parent, const std::string& name, int size)
      : Module(parent, name), _request(static_cast<std::size_t>(size)), _size(size) {}
  virtual void PrintState() const = 0;
  virtual void AddRequest(int input, int id, int pri) {
    if (input < 0 || input >= _size || _request[static_cast<std::size_t>(input)].valid)
      throw std::logic_error("AddRequest: input out of range or repeated");
    _request[static_cast<std::size_t>(input)] = entry_t{true, id, pri};
    ++_num_reqs;
  }
  virtual void UpdateState() = 0;
  virtual int Arbitrate(int* id = 0, int* pri = 0) {
    if (_selected >= 0) {
      if (id) *id = _request[static_cast<std::size_t>(_selected)].id;
      if (pri) *pri = _request[static_cast<std::size_t>(_selected)].pri;
    }
    return _selected;
  }
  virtual void Clear() {
    for (entry_t& e : _request) e.valid = false;
    _num_reqs = 0;
    _selected = -1;
  }
  int LastWinner() const { return _selected; }
};

#endif  // INTERLOCK_TESTS_BOOKSIM2_FAKE_ARBITER_HPP
