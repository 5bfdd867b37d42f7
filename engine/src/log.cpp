#include "canopy/engine/log.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace canopy::engine {

namespace {

bool errors_logged() {
    const char* level = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
    return level == nullptr || std::strcmp(level, "4") != 0;
}

}  // namespace

void log_error(const std::string& message) {
    static const bool enabled = errors_logged();
    // One write per message, so that messages of concurrent streams do not interleave.
    if (enabled) std::fprintf(stderr, "[ERROR] CANOPY: %s\n", message.c_str());
}

}  // namespace canopy::engine
