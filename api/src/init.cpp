// aclInit / aclFinalize: the runtime state and its reference count.
#include <atomic>
#include <cstdlib>
#include <sys/stat.h>

#include "api.h"
#include "canopy/engine/wait_list.h"
#include "trace.h"

namespace canopy::api {

namespace {
std::mutex init_mutex;
std::atomic<State*> current_state{nullptr};
std::uint64_t references = 0;  // guarded by init_mutex
// Started by a runtime call before any aclInit: the default configuration, no reference yet.
bool implicit = false;         // guarded by init_mutex

void finalize_locked() {
    State* state = current_state.exchange(nullptr);
    references = 0;
    implicit = false;
    // Every device still set is released as a reset releases it: waits for notifies or values that
    // will not come any more fail, callbacks no thread processes run here, so that the streams can go.
    std::vector<const engine::Device*> devices;
    for (int id = 0; state && id < state->runtime.device_count(); ++id) {
        if (engine::Device* device = state->runtime.device(id)) {
            std::lock_guard lock(state->devices_mutex);
            release_device_objects(*state, *device, "aclFinalize");
            devices.push_back(device);
        }
    }
    PinScope::release_all();  // this call's own pins, before their tables go
    delete state;
    for (const engine::Device* device : devices) engine::WaitList::end_device_reset(device);
    trace::runtime_finalized();  // every operation has finished: the trace is complete
}

// A directory opens as a stream on Linux and fails only when read; it is a file error, as a missing file is.
void require_regular_file(const char* path, const char* argument) {
    struct stat info {};
    if (stat(path, &info) == 0 && S_ISDIR(info.st_mode))
        fail(ACL_ERROR_INVALID_FILE, std::string(argument) + ": " + path + ": is a directory, not a configuration file");
}

engine::RuntimeConfig read_config(const char* path) {
    require_regular_file(path, "configPath");
    try {
        return engine::load_config(path);
    } catch (const engine::ConfigError& error) {
        fail(error.code, "configPath: " + error.message);
    }
}

// Without a path of its own (aclInit(NULL), or no aclInit at all) a program gets the file named by
// CANOPY_CONFIG, so that an unchanged program can run with, say, two devices.
engine::RuntimeConfig configuration(const char* path) {
    if (path && *path) return read_config(path);
    const char* from_environment = std::getenv("CANOPY_CONFIG");
    if (!from_environment || !*from_environment) return engine::RuntimeConfig{};
    require_regular_file(from_environment, "CANOPY_CONFIG");
    try {
        return engine::load_config(from_environment);
    } catch (const engine::ConfigError& error) {
        fail(error.code, "CANOPY_CONFIG: " + error.message);
    }
}
}  // namespace

State& state() {
    State* state = current_state.load(std::memory_order_acquire);
    if (!state) fail(ACL_ERROR_UNINITIALIZE, "aclInit has not been called");
    return *state;
}

State& state_or_implicit_init() {
    if (State* state = current_state.load(std::memory_order_acquire)) return *state;
    std::lock_guard lock(init_mutex);
    if (!current_state.load(std::memory_order_relaxed)) {
        const engine::RuntimeConfig config = configuration(nullptr);
        current_state.store(new State(config), std::memory_order_release);
        trace::runtime_started(config);
        implicit = true;
    }
    return *current_state.load(std::memory_order_relaxed);
}

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclInit(const char* configPath) {
    return call("aclInit", [&] {
        std::lock_guard lock(init_mutex);
        if (current_state.load(std::memory_order_relaxed) && implicit) {
            // The runtime already runs (aclrtSetDevice came first) and its devices cannot change any
            // more, so only a file asking for the configuration it started with is accepted.
            if (configPath && *configPath) {
                const engine::RuntimeConfig wanted = read_config(configPath);
                const engine::RuntimeConfig defaults = configuration(nullptr);
                if (wanted.device_count != defaults.device_count || wanted.workers_per_device != defaults.workers_per_device ||
                    wanted.ub_bytes != defaults.ub_bytes || wanted.device_memory_bytes != defaults.device_memory_bytes ||
                    wanted.sync_copies_wait != defaults.sync_copies_wait || wanted.queue_depth != defaults.queue_depth ||
                    wanted.queue_full_fails != defaults.queue_full_fails) {
                    fail(ACL_ERROR_REPEAT_INITIALIZE, "configPath: the runtime was already started by a call before "
                                                      "aclInit, so its \"canopy\" options cannot take effect");
                }
            }
            implicit = false;
            references = 1;
            return;
        }
        if (current_state.load(std::memory_order_relaxed)) {
            ++references;
            fail(ACL_ERROR_REPEAT_INITIALIZE, "already initialized (reference count now " +
                                                  std::to_string(references) + ")");
        }
        const engine::RuntimeConfig config = configuration(configPath);
        current_state.store(new State(config), std::memory_order_release);
        trace::runtime_started(config);
        references = 1;
    });
}

aclError aclFinalize(void) {
    return call("aclFinalize", [] {
        // Finalizing waits for every stream, the caller's among them.
        if (engine::in_stream_work()) {
            fail(ACL_ERROR_RT_NO_PERMISSION, "cannot finalize from a host function or callback: it would wait for itself");
        }
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
        if (references == 1 && engine::in_stream_work()) {
            fail(ACL_ERROR_RT_NO_PERMISSION, "cannot finalize from a host function or callback: it would wait for itself");
        }
        *refCount = --references;
        if (references == 0) finalize_locked();
    });
}

}  // extern "C"
