#pragma once
// One error type for everything the user can get wrong: a bad option, a
// foreign file, a report without the data a rule needs. Its message is the
// one line the CLI prints and the viewer shows.
#include <stdexcept>
#include <string>

namespace asys {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The report lacks a table a rule needs (the CLI still runs the other rules).
class MissingDataError : public Error {
 public:
  using Error::Error;
};

}  // namespace asys
