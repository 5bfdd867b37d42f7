// aclInit / aclFinalize: the runtime state and its reference count.
#include <atomic>

#include "api.h"

namespace canopy::api {

namespace {
std::mutex init_mutex;
std::atomic<State*> current_state{nullptr};
std::uint64_t references = 0;  // guarded by init_mutex

void finalize_locked() {
    State* state = current_state.exchange(nullptr);
    references = 0;
    delete state;
}
}  // namespace

State& state() {
    State* state = current_state.load(std::memory_order_acquire);
    if (!state) fail(ACL_ERROR_UNINITIALIZE, "aclInit has not been called");
    return *state;
}

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclInit(const char* configPath) {
    return call("aclInit", [&] {
        std::lock_guard lock(init_mutex);
        if (current_state.load(std::memory_order_relaxed)) {
            ++references;
            fail(ACL_ERROR_REPEAT_INITIALIZE, "already initialized (reference count now " +
                                                  std::to_string(references) + ")");
        }
        engine::RuntimeConfig config;
        if (configPath && *configPath) {
            try {
                config = engine::load_config(configPath);
            } catch (const engine::ConfigError& error) {
                fail(error.code, "configPath: " + error.message);
            }
        }
        current_state.store(new State(config), std::memory_order_release);
        references = 1;
    });
}

aclError aclFinalize(void) {
    return call("aclFinalize", [] {
        std::lock_guard lock(init_mutex);
        if (!current_state.load(std::memory_order_relaxed)) fail(ACL_ERROR_REPEAT_FINALIZE, "not initialized");
        finalize_locked();
    });
}

aclError aclFinalizeReference(uint64_t* refCount) {
    return call("aclFinalizeReference", [&] {
        require(refCount, "refCount");
        std::lock_guard lock(init_mutex);
        if (!current_state.load(std::memory_order_relaxed)) fail(ACL_ERROR_REPEAT_FINALIZE, "not initialized");
        *refCount = --references;
        if (references == 0) finalize_locked();
    });
}

}  // extern "C"
