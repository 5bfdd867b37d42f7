// aclInit / aclFinalize: the runtime state and its reference count.
#include <atomic>
#include <cstdlib>
#include <sys/stat.h>

#include "api.h"
#include "canopy/soc.h"
#include "canopy/engine/wait_list.h"
#include "canopy/engine/trace.h"

namespace canopy::api {

namespace {
std::mutex init_mutex;
std::atomic<State*> current_state{nullptr};
std::uint64_t references = 0;  // guarded by init_mutex
// Started by a runtime call before any aclInit: the default configuration, no reference yet.
bool implicit = false;         // guarded by init_mutex

std::uintptr_t state_key() { return reinterpret_cast<std::uintptr_t>(&current_state); }

void finalize_locked() {
    // From here on calls fail with ACL_ERROR_UNINITIALIZE; the state is freed once the calls of
    // other threads that reached it have returned.
    State* state = current_state.exchange(nullptr, std::memory_order_seq_cst);
    references = 0;
    implicit = false;
    pins::barrier();
    // Every device still set is released as a reset releases it: waits for notifies or values that
    // will not come any more fail, callbacks no thread processes run here, so that the streams can go.
    std::vector<const engine::Device*> devices;
    for (int id = 0; state && id < state->runtime.device_count(); ++id) {
        // Looked up under the lock: a reset that reached the state before it closed may still run.
        std::lock_guard lock(state->devices_mutex);
        if (engine::Device* device = state->runtime.device(id)) {
            release_device_objects(*state, *device, "aclFinalize");
            devices.push_back(device);
        }
    }
    // Those calls do not wait for anything aclFinalize holds (init_mutex is only taken unpinned):
    // the ones waiting for the devices' streams have returned with them.
    pins::await_unpinned(state_key());
    PinScope::release_all();  // this call's own pins, before their tables go
    delete state;
    for (const engine::Device* device : devices) engine::WaitList::end_device_reset(device);
    engine::trace::runtime_finalized();  // every operation has finished: the trace is complete
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
    if (const char* unknown = soc::unknown_request()) {
        std::string known;
        for (const soc::Model& model : soc::models) known += std::string(known.empty() ? "" : ", ") + model.name;
        fail(ACL_ERROR_INVALID_PARAM, std::string(soc::environment_variable) + ": \"" + unknown +
                                          "\" is not a part Canopy models (" + known + ")");
    }
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

namespace {
// The state pinned for the rest of the call (aclFinalize waits for the call before it frees it),
// or nullptr.
State* pinned_state(pins::ThreadPins& record) {
    pins::pin(record, state_key());
    return current_state.load(pins::recheck_order());
}
}  // namespace

State& state() {
    State* state = pinned_state(pins::mine());
    if (!state) fail(ACL_ERROR_UNINITIALIZE, "aclInit has not been called");
    return *state;
}

State& state_or_implicit_init() {
    pins::ThreadPins& record = pins::mine();
    const std::uint32_t depth = record.size.load(std::memory_order_relaxed);
    if (State* state = pinned_state(record)) return *state;
    // No pin is held while waiting for init_mutex: aclFinalize holds it while it waits for pins.
    pins::unpin_to(record, depth);
    {
        std::lock_guard lock(init_mutex);
        if (!current_state.load(std::memory_order_relaxed)) {
            const engine::RuntimeConfig config = configuration(nullptr);
            current_state.store(new State(config), std::memory_order_seq_cst);
            engine::trace::runtime_started(config);
            implicit = true;
        }
    }
    if (State* state = pinned_state(record)) return *state;
    fail(ACL_ERROR_UNINITIALIZE, "aclFinalize ran while this call was starting the runtime");
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
        engine::trace::runtime_started(config);
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
