#pragma once
// How an operation reports that it failed: it throws OperationError with a CANN error code; the
// engine records it on the operation's stream, which returns it from the next synchronize.
#include <stdexcept>
#include <string>

namespace canopy::engine {

class OperationError : public std::runtime_error {
public:
    OperationError(int code, const std::string& message) : std::runtime_error(message), code_(code) {}
    int code() const { return code_; }

private:
    int code_;
};

struct Failure {
    int code = 0;
    std::string message;
    explicit operator bool() const { return code != 0; }
};

}  // namespace canopy::engine
