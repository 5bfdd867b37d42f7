#pragma once
// Shared by the C entry points: the runtime state between aclInit and aclFinalize, the handle
// tables, the calling thread's current context, argument checks and the thread-local error text.
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <type_traits>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "canopy/engine/context.h"
#include "canopy/engine/device.h"
#include "canopy/engine/event.h"
#include "canopy/engine/failure.h"
#include "canopy/engine/memory.h"
#include "canopy/engine/runtime.h"
#include "canopy/engine/stream.h"
#include "canopy/engine/virtual_memory.h"
#include "handle_table.h"

namespace canopy::engine {
struct Label;
struct LabelList;
struct TaskGroup;
}  // namespace canopy::engine

namespace canopy::api {

// A failing call throws Error inside call(); call() turns it into the return code and the text.
struct Error {
    aclError code;
    std::string message;
};
[[noreturn]] void fail(aclError code, std::string message);

// Never throws, as call()'s handlers must not: without memory for the text it is kept in a fixed buffer.
void record_error(const char* api, aclError code, const char* message) noexcept;

template <class Body>
aclError call(const char* api, Body&& body) noexcept {
    const PinScope pins;  // the objects the call reaches through handles stay alive until it returns
    try {
        body();
        return ACL_SUCCESS;
    } catch (const Error& error) {
        record_error(api, error.code, error.message.c_str());
        return error.code;
    } catch (const engine::OperationError& error) {
        // An enqueue the engine or a stream's recorder refused (a full queue, a model's stream).
        record_error(api, error.code(), error.what());
        return error.code();
    } catch (const std::bad_alloc&) {
        record_error(api, ACL_ERROR_BAD_ALLOC, "out of host memory");
        return ACL_ERROR_BAD_ALLOC;
    } catch (const std::exception& error) {
        record_error(api, ACL_ERROR_INTERNAL_ERROR, error.what());
        return ACL_ERROR_INTERNAL_ERROR;
    }
}

// Throws ACL_ERROR_INVALID_PARAM naming the argument when a required pointer is null.
template <class T>
void require(T* pointer, const char* argument) {
    if (pointer == nullptr) fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " is NULL");
}

std::string describe(const void* pointer);

struct State;
// The registered allocation (device or page-locked host memory) holding pointer, nullopt for other
// host memory. A pointer into the device heap that no live allocation holds is device memory freed
// by aclrtFree (or never allocated): ACL_ERROR_INVALID_PARAM naming `api`'s argument, never taken
// for host memory (memory.cpp).
std::optional<engine::Allocation> allocation_of(State& state, const void* pointer, const char* argument);

// Whether [pointer, pointer + count) lies in one range registered with aclrtHostRegister or
// aclrtHostRegisterV2 (host_register.cpp): page-locked host memory, which copies need not treat as
// pageable.
bool registered_host_range(const void* pointer, std::size_t count);

// A C caller may pass any integer where an enum is expected; loading a value outside the enum's
// range through the C++ enum type is undefined (UBSan aborts on it), so checks read the bits.
template <class Enum>
std::underlying_type_t<Enum> raw_value(const Enum& value) {
    std::underlying_type_t<Enum> bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

// Kernel handles (kernel.cpp): a function (aclrtFuncHandle), a loaded kernel library
// (aclrtBinHandle) and an argument list being built (aclrtArgsHandle).
struct KernelFunction;
struct KernelBinary;
struct KernelArgs;
// Notifies (notify.cpp).
struct Notify;
// Model runtime instances (model_build.cpp) and conditions (capture.cpp).
struct Model;
struct CondHandle;
// Custom allocators registered per stream (allocator.cpp).
struct AllocatorRegistrations;

struct State {
    explicit State(const engine::RuntimeConfig& config)
        : runtime(config),
          primary_contexts(static_cast<std::size_t>(config.device_count)),
          set_devices(new std::atomic<engine::Device*>[static_cast<std::size_t>(config.device_count)]()),
          hardware_sync_areas(static_cast<std::size_t>(config.device_count), nullptr) {}

    engine::Runtime runtime;
    std::mutex devices_mutex;
    std::vector<void*> primary_contexts;  // per device id: the handle of its default context
    // Per device id: the device while it is set, for the calls that name a device by its id
    // (reach_device); written under devices_mutex.
    std::unique_ptr<std::atomic<engine::Device*>[]> set_devices;
    // Per device id: its hardware-sync area (aclrtGetHardwareSyncAddr), made on the first request while
    // the device is set; under hardware_sync_mutex (hardware_sync.cpp).
    std::mutex hardware_sync_mutex;
    std::vector<void*> hardware_sync_areas;
    HandleTable<engine::Context, HandleTag::context> contexts;
    HandleTable<engine::Stream, HandleTag::stream> streams;
    HandleTable<engine::Event, HandleTag::event> events;
    HandleTable<KernelFunction, HandleTag::function> functions;
    HandleTable<KernelBinary, HandleTag::binary> binaries;
    HandleTable<KernelArgs, HandleTag::args> kernel_args;
    HandleTable<Notify, HandleTag::notify> notifies;
    HandleTable<engine::Label, HandleTag::label> labels;  // label.cpp
    HandleTable<engine::LabelList, HandleTag::label_list> label_lists;
    HandleTable<Model, HandleTag::model> models;
    HandleTable<engine::TaskGroup, HandleTag::task_group> task_groups;  // capture.cpp
    HandleTable<CondHandle, HandleTag::cond_handle> cond_handles;
    HandleTable<engine::PhysicalMemory, HandleTag::physical_memory> physical_memory;  // virtual_memory.cpp
    // The device memory this process imported by IPC key, by key (virtual_memory.cpp).
    std::mutex ipc_imports_mutex;
    std::map<std::string, void*> ipc_imports;
    // The runtime's, so that a program that finalizes and initializes again starts with none.
    std::shared_ptr<AllocatorRegistrations> allocator_registrations;  // allocator.cpp, under its mutex
};

// The state, or ACL_ERROR_UNINITIALIZE when aclInit has not been called.
State& state();
// The state; a program that skipped aclInit gets the default configuration, as CANN's runtime needs
// no aclInit before aclrtSetDevice (init.cpp).
State& state_or_implicit_init();

// The calling thread's current context (ACL_ERROR_RT_CONTEXT_NULL if none).
engine::Context& current_context(State& state);
void* current_context_handle();
void set_current_context(void* handle);

// A non-null stream handle, or ACL_ERROR_INVALID_PARAM for NULL and ACL_ERROR_RT_INVALID_HANDLE for
// anything that is not a live stream.
engine::Stream& stream_handle(State& state, aclrtStream stream, const char* argument);
// As stream_handle, but NULL is the current context's default stream; the stream must belong to
// the current context (ACL_ERROR_RT_STREAM_CONTEXT otherwise).
engine::Stream& target_stream(State& state, aclrtStream stream, const char* argument);
engine::Event& event_handle(State& state, aclrtEvent event, const char* argument);

// The handle under which the default stream of a context is known.
void* default_stream_handle(State& state, engine::Context& context);
// As default_stream_handle, for a context just added to the table as `context_handle`: when the
// stream's handle cannot be made, the context's is removed again before the failure goes on.
void* default_stream_handle_or_remove(State& state, engine::Context& context, void* context_handle);

// aclrtSetDevice's and aclrtCreateContext's reference on a device that Runtime::create_device made,
// counted once nothing can fail any more (under state.devices_mutex); the device is then set.
void add_device_reference(State& state, int32_t device_id, engine::Device& device);
// The device `device_id` if it is set (nullptr if not), alive until the calling API call returns:
// a reset or aclFinalize waits for the call before it frees the device. For calls that do not wait
// for anything while they hold it (the reset waits for them under devices_mutex).
engine::Device* reach_device(State& state, int32_t device_id);

// Drops one (or every) reference on a device; at zero destroys what the api built on it and the device.
void drop_device(State& state, int32_t device_id, bool all);
// Destroys what the api built on a device (streams, events, contexts) before it is reset (or the
// runtime finalized: `ending` names which, for the waits it fails). Callbacks that no thread
// processes run on the calling thread, so that no stream is left waiting for them.
void release_device_objects(State& state, engine::Device& device, const char* ending);

// The hardware-sync areas (hardware_sync.cpp): whether pointer is one (aclrtFree refuses it: the runtime
// owns it), and forgetting a reset device's, whose memory goes with the device's other allocations.
bool is_hardware_sync_area(State& state, const void* pointer);
void forget_hardware_sync_area(State& state, int32_t device_id);

// A stream's pending failure as the call's error.
void check(const engine::Failure& failure);

// A host function or callback must not wait for the stream (the device) whose work it is: it would
// wait for itself. CANN's documentation says such calls may deadlock; Canopy refuses them with
// ACL_ERROR_RT_NO_PERMISSION, as CUDA refuses API calls from host functions.
void refuse_waiting_for_own_work(const engine::Stream& stream, const char* what);
void refuse_waiting_for_own_work(const engine::Device& device, const char* what);

// The aclrtRegStreamStateCallback callbacks registered when it was made (stream.cpp). Taken
// before a stream's handle is made: copying them may fail, announcing the handle must not.
class StreamStateCallbacks {
public:
    StreamStateCallbacks();
    void announce(void* stream, aclrtStreamState state) const;

private:
    struct Entry {
        aclrtStreamStateCallback callback;
        void* args;
    };
    std::vector<Entry> entries_;
};
// Calls the aclrtRegStreamStateCallback callbacks.
void notify_stream_state(void* stream, aclrtStreamState state);
// The handles of the named streams (default streams included) for which `selected` holds.
std::vector<void*> stream_handles(State& state, const std::function<bool(const engine::Stream&)>& selected);

// A copy between two devices, or between a device and the current one, needs peer access from the
// current device (aclrtDeviceEnablePeerAccess); ACL_ERROR_RT_NO_PERMISSION otherwise (peer.cpp).
// The devices are those of the copy's device-memory sides, nullptr for host memory.
void check_peer_access(State& state, const engine::Device* dst, const engine::Device* src);

// Stream capture (capture.cpp).
// Whether the stream records into a capture (its own or one it joined).
bool capturing(const engine::Stream& stream);
// aclrtMemcpy, aclrtMemset, aclrtMemcpy2d and asynchronous copies of pageable memory, which CANN
// calls unsafe during a capture: ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT when the calling thread's
// capture mode forbids them (aclmdlRICaptureThreadExchangeMode).
void refuse_unsafe_during_capture(const char* what);
// Synchronizing or querying a capturing stream fails with ACL_ERROR_RT_STREAM_CAPTURED and
// invalidates its capture; so does synchronizing a device with a capture running.
void refuse_capturing_stream(const engine::Stream& stream, const char* what);
void refuse_device_sync_during_capture(const engine::Device& device);

}  // namespace canopy::api
