#pragma once
// Errors that no call returns at once: a kernel fault, a failed copy or host function found while a
// stream runs. The program learns of them at its next synchronization, as on the NPU, but programs
// (the official samples among them) often ignore that code and print a wrong result; so the
// runtime also writes each one to stderr when it happens, as CANN's runtime writes it to its log.
// ASCEND_GLOBAL_LOG_LEVEL, CANN's log level (0 debug .. 3 error, 4 off), set to 4 silences them.
#include <string>

namespace canopy::engine {

void log_error(const std::string& message);

}  // namespace canopy::engine
