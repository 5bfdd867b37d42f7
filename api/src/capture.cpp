// Stream capture's C entry points: aclmdlRICaptureBegin ... aclmdlRICaptureEnd, task groups and
// their updates, conditional tasks and the debug print, over the engine's captures
// (canopy/engine/capture.h), which record the streams' work and compile it into the graph that
// aclmdlRIExecuteAsync replays. Here are the handles of models, task groups and conditions, the
// checks, the error text naming streams by their handles, and each thread's capture mode.
#include <algorithm>
#include <fstream>

#include "canopy/engine/capture.h"
#include "canopy/engine/failure.h"
#include "canopy/engine/memory.h"
#include "model_build.h"

namespace canopy::api {

struct CondHandle {
    std::weak_ptr<engine::CapturedModel> model;
    std::uint64_t* value;
};

namespace {

static_assert(static_cast<int>(engine::CaptureMode::relaxed) == ACL_MODEL_RI_CAPTURE_MODE_RELAXED &&
              static_cast<int>(engine::CaptureMode::per_thread) == ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL);
static_assert(static_cast<int>(engine::ConditionKind::if_else) == ACL_MODEL_RI_COND_TYPE_IF &&
              static_cast<int>(engine::ConditionKind::while_loop) == ACL_MODEL_RI_COND_TYPE_WHILE &&
              static_cast<int>(engine::ConditionKind::switch_index) == ACL_MODEL_RI_COND_TYPE_SWITCH);

// The calling thread's capture mode (aclmdlRICaptureThreadExchangeMode). Which captures run, in
// which mode and begun by which thread, is the engine's to know (a device reset ends them).
thread_local aclmdlRICaptureMode thread_mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;

std::string stream_text(State& state, const engine::Stream* stream) {
    return "stream " + describe(stream ? state.streams.handle_of(stream) : nullptr);
}

// The handle of the model a capture fills.
void* captured_handle(State& state, const engine::Capture& capture) {
    const engine::CapturedModel* captured = capture.model().get();
    return state.models.find_handle([captured](const Model& model) { return model.captured.get() == captured; });
}

// The capture the stream records into, or ACL_ERROR_RT_STREAM_NOT_CAPTURED.
engine::Capture& capture_of(const engine::Stream& stream, aclrtStream handle, const char* why = "") {
    engine::Capture* capture = engine::Capture::of(stream);
    if (!capture) fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "stream " + describe(handle) + " is not capturing" + why);
    return *capture;
}

// By reference: a C caller may pass any integer, and copying an invalid enum value is undefined.
void check_mode(const aclmdlRICaptureMode& mode, const char* argument) {
    const auto value = raw_value(mode);
    if (value < ACL_MODEL_RI_CAPTURE_MODE_GLOBAL || value > ACL_MODEL_RI_CAPTURE_MODE_RELAXED) {
        fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " " + std::to_string(value) +
                                          " is not an aclmdlRICaptureMode (GLOBAL 0, THREAD_LOCAL 1, RELAXED 2)");
    }
}

// Starts capturing `stream` into `model` (new, or a branch of a conditional task) in `mode`, checked.
void begin(State& state, aclrtStream stream, const std::shared_ptr<engine::CapturedModel>& model, aclmdlRICaptureMode mode) {
    if (!stream) fail(ACL_ERROR_INVALID_PARAM, "stream is NULL: the default stream cannot be captured");
    engine::Stream& target = target_stream(state, stream, "stream");
    if (stream == default_stream_handle(state, target.context()))
        fail(ACL_ERROR_INVALID_PARAM, "stream " + describe(stream) + " is the default stream, which cannot be captured");
    if (engine::Capture::of(target)) fail(ACL_ERROR_RT_STREAM_CAPTURED, "stream " + describe(stream) + " is already capturing");
    if (target.recorder()) {
        fail(ACL_ERROR_RT_STREAM_MODEL, "stream " + describe(stream) +
                                            " is bound to a model being built or updating a task group");
    }
    engine::Capture::begin(target, model, static_cast<engine::CaptureMode>(mode));
}

// What aclmdlRIDebugJsonPrint calls a task of each kind.
const char* type_name(engine::OpKind kind) {
    switch (kind) {
        case engine::OpKind::kernel: return "KERNEL";
        case engine::OpKind::memcpy: return "MEMCPY";
        case engine::OpKind::memset: return "MEMSET";
        case engine::OpKind::host_func: return "HOST_FUNC";
        case engine::OpKind::event_wait: return "EVENT_WAIT";
        case engine::OpKind::event_reset: return "EVENT_RESET";
        case engine::OpKind::event_record: return "EVENT_RECORD";
        case engine::OpKind::signal: return "VALUE_WRITE";
        default: return engine::to_string(kind);
    }
}

std::string json_text(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        if (static_cast<unsigned char>(c) < 0x20) continue;
        out += c;
    }
    return out + "\"";
}

}  // namespace

bool capturing(const engine::Stream& stream) { return engine::Capture::of(stream) != nullptr; }

void refuse_unsafe_during_capture(const char* what) {
    if (!engine::captures_running() || thread_mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED) return;
    using engine::CaptureMode;
    const bool own = engine::Capture::running_in_mode(CaptureMode::global, true) ||
                     engine::Capture::running_in_mode(CaptureMode::per_thread, true);
    if (own || (thread_mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL && engine::Capture::running_in_mode(CaptureMode::global, false))) {
        fail(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
             std::string(what) + " is not allowed while " +
                 (own ? "this thread captures a stream" : "a stream captures in ACL_MODEL_RI_CAPTURE_MODE_GLOBAL") +
                 ": switch this thread to ACL_MODEL_RI_CAPTURE_MODE_RELAXED (aclmdlRICaptureThreadExchangeMode)");
    }
}

void refuse_capturing_stream(const engine::Stream& stream, const char* what) {
    engine::Capture* capture = engine::Capture::of(stream);
    if (!capture) return;
    const std::string reason = std::string(what) + " " + stream_text(state(), &stream) + " while it captures";
    capture->invalidate(reason);
    fail(ACL_ERROR_RT_STREAM_CAPTURED, std::string("cannot ") + reason + ": the capture is now invalidated");
}

void refuse_device_sync_during_capture(const engine::Device& device) {
    const std::shared_ptr<engine::Capture> capture = engine::Capture::running_on(device);
    if (!capture) return;
    fail(ACL_ERROR_RT_STREAM_CAPTURED, "cannot synchronize device " + std::to_string(device.id()) +
                                           " while a stream of it captures (" + stream_text(state(), capture->origin()) + ")");
}

void execute_captured(Model& model, aclmdlRI handle, engine::Stream& stream, aclrtStream stream_handle) {
    std::shared_ptr<engine::CapturedGraph> graph;
    {
        std::lock_guard lock(model.captured->mutex);
        if (model.captured->capture)
            fail(ACL_ERROR_RT_MODEL_CAPTURED, "modelRI " + describe(handle) + " is still being captured (aclmdlRICaptureEnd)");
        if (model.captured->branch) {
            fail(ACL_ERROR_INVALID_PARAM, "modelRI " + describe(handle) +
                                              " is a branch of a conditional task: it runs when its parent model runs");
        }
        graph = model.captured->graph;
    }
    if (!graph) fail(ACL_ERROR_RT_MODEL_CAPTURED, "modelRI " + describe(handle) + " was never captured");
    if (stream.recorder()) {
        fail(ACL_ERROR_RT_STREAM_CAPTURED, "stream " + describe(stream_handle) +
                                               " records its work (a capture, a model build or a task update): "
                                               "executing a model there is not supported");
    }
    graph->enqueue(stream);
}

namespace {
// Frees what a captured model holds once no replay of it is queued or running.
void tear_down(State& state, Model& model) {
    std::shared_ptr<engine::CapturedGraph> graph;
    {
        std::lock_guard lock(model.captured->mutex);
        graph = std::move(model.captured->graph);
    }
    std::vector<void*> branches, cond_handles, memory;
    {
        std::lock_guard lock(model.mutex);
        branches.swap(model.branches);
        cond_handles.swap(model.cond_handles);
        memory.swap(model.cond_memory);
    }
    // Replays enqueued before the destroy run to their end first, as a destroyed stream's work does.
    if (graph) graph->wait_idle();
    graph.reset();
    for (void* branch : branches)
        if (std::shared_ptr<Model> owned = state.models.remove(branch)) tear_down(state, *owned);
    for (void* cond : cond_handles) state.cond_handles.remove(cond);
    for (void* pointer : memory) state.runtime.release_memory(pointer, engine::MemoryKind::device);
}
}  // namespace

void destroy_captured(State& state, const std::shared_ptr<Model>& model, aclmdlRI handle) {
    std::shared_ptr<engine::CapturedGraph> graph;
    {
        std::lock_guard lock(model->captured->mutex);
        if (model->captured->capture) {
            fail(ACL_ERROR_RT_MODEL_CAPTURED, "modelRI " + describe(handle) +
                                                  " is being captured: end the capture first (aclmdlRICaptureEnd)");
        }
        if (model->captured->branch) {
            fail(ACL_ERROR_INVALID_PARAM, "modelRI " + describe(handle) +
                                              " is a branch of a conditional task: it is destroyed with its parent");
        }
        graph = model->captured->graph;
    }
    if (graph && graph->pending() != 0 && engine::in_stream_work()) {
        fail(ACL_ERROR_RT_NO_PERMISSION, "modelRI " + describe(handle) +
                                             " has replays queued or running, which a host function or callback cannot wait for");
    }
    graph.reset();
    state.models.remove(handle);
    tear_down(state, *model);
}

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode) {
    return call("aclmdlRICaptureBegin", [&] {
        check_mode(mode, "mode");
        State& s = state();
        auto model = std::make_shared<Model>();
        model->captured = std::make_shared<engine::CapturedModel>(false);
        void* handle = s.models.add(model);
        try {
            begin(s, stream, model->captured, mode);
        } catch (...) {
            s.models.remove(handle);
            throw;
        }
    });
}

aclError aclmdlRICaptureToModelRIBegin(aclrtStream stream, aclmdlRI modelRI, aclmdlRICaptureMode mode) {
    return call("aclmdlRICaptureToModelRIBegin", [&] {
        check_mode(mode, "mode");
        State& s = state();
        std::shared_ptr<Model> model = model_handle(s, modelRI);
        if (!model->captured || !model->captured->branch) {
            fail(ACL_ERROR_INVALID_PARAM, "modelRI " + describe(modelRI) +
                                              " is not a branch of a conditional task (aclmdlRIAddCondTask)");
        }
        {
            std::lock_guard lock(model->captured->mutex);
            if (model->captured->capture || model->captured->graph)
                fail(ACL_ERROR_RT_MODEL_CAPTURED, "modelRI " + describe(modelRI) + " is captured already");
        }
        begin(s, stream, model->captured, mode);
    });
}

aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus* status, aclmdlRI* modelRI) {
    return call("aclmdlRICaptureGetInfo", [&] {
        require(status, "status");
        require(modelRI, "modelRI");
        State& s = state();
        engine::Capture* capture = engine::Capture::of(target_stream(s, stream, "stream"));
        if (!capture) {
            *status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
            *modelRI = nullptr;
            return;
        }
        *status = capture->invalidated().empty() ? ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE : ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED;
        *modelRI = captured_handle(s, *capture);
    });
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI) {
    return call("aclmdlRICaptureEnd", [&] {
        require(modelRI, "modelRI");
        State& s = state();
        engine::Stream& target = target_stream(s, stream, "stream");
        engine::Capture& capture = capture_of(target, stream, " (aclmdlRICaptureBegin)");
        engine::Stream* origin = capture.origin();
        if (origin != &target) {
            fail(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, "stream " + describe(stream) + " joined the capture of " +
                                                            stream_text(s, origin) + " through an event: end the capture on that stream");
        }
        if (capture.mode != engine::CaptureMode::relaxed && capture.thread != std::this_thread::get_id()) {
            fail(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
                 "stream " + describe(stream) +
                     " captures in GLOBAL or THREAD_LOCAL mode: the capture must end on the thread that began it");
        }
        void* handle = captured_handle(s, capture);
        const std::shared_ptr<engine::CapturedModel> model = capture.model();
        const std::pair<int, std::string> problem = capture.end();
        if (problem.first != ACL_SUCCESS) {
            // The instance held no graph; a branch model stays, uncaptured, with its parent.
            if (!model->branch) s.models.remove(handle);
            fail(problem.first, "stream " + describe(stream) + ": " + problem.second);
        }
        *modelRI = handle;
    });
}

aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode* mode) {
    return call("aclmdlRICaptureThreadExchangeMode", [&] {
        require(mode, "mode");
        check_mode(*mode, "*mode");
        std::swap(thread_mode, *mode);
    });
}

aclError aclmdlRICaptureTaskGrpBegin(aclrtStream stream) {
    return call("aclmdlRICaptureTaskGrpBegin", [&] {
        State& s = state();
        engine::Stream& target = target_stream(s, stream, "stream");
        if (!capture_of(target, stream).open_group(target)) {
            fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "stream " + describe(stream) +
                                                         ": a task group is open already in this capture (aclmdlRICaptureTaskGrpEnd)");
        }
    });
}

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp* handle) {
    return call("aclmdlRICaptureTaskGrpEnd", [&] {
        require(handle, "handle");
        State& s = state();
        engine::Stream& target = target_stream(s, stream, "stream");
        std::shared_ptr<engine::TaskGroup> group = capture_of(target, stream).close_group(target);
        if (!group) {
            fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "stream " + describe(stream) +
                                                         " has no open task group (aclmdlRICaptureTaskGrpBegin)");
        }
        *handle = s.task_groups.add(std::move(group));
    });
}

aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle) {
    return call("aclmdlRICaptureTaskUpdateBegin", [&] {
        State& s = state();
        engine::Stream& target = target_stream(s, stream, "stream");
        require(handle, "handle");
        std::shared_ptr<engine::TaskGroup> group = s.task_groups.share(handle);
        if (!group) fail(ACL_ERROR_RT_INVALID_HANDLE, "handle " + describe(handle) + " is not a live task group");
        if (engine::Capture::of(target)) fail(ACL_ERROR_RT_STREAM_CAPTURED, "stream " + describe(stream) + " is capturing");
        if (target.recorder()) {
            fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "stream " + describe(stream) +
                                                         " already records (a task update or a model build)");
        }
        std::shared_ptr<engine::CapturedModel> model = group->model.lock();
        std::shared_ptr<engine::CapturedGraph> graph;
        if (model) {
            std::lock_guard lock(model->mutex);
            graph = model->graph;
        }
        if (!graph) fail(ACL_ERROR_RT_MODEL_CAPTURED, "handle " + describe(handle) + ": its model's capture has not ended or the model was destroyed");
        if (const engine::Stream* updating = engine::GroupUpdate::begin(target, group, std::move(graph))) {
            fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "handle " + describe(handle) + ": the task group is being updated on " +
                                                         stream_text(s, updating) + " (aclmdlRICaptureTaskUpdateEnd)");
        }
    });
}

aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream) {
    return call("aclmdlRICaptureTaskUpdateEnd", [&] {
        State& s = state();
        engine::Stream& target = target_stream(s, stream, "stream");
        std::unique_ptr<engine::GroupUpdate> update = engine::GroupUpdate::end(target);
        if (!update) {
            fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "stream " + describe(stream) +
                                                         " is not updating a task group (aclmdlRICaptureTaskUpdateBegin)");
        }
        const engine::TaskGroup& group = *update->group;
        if (update->operations.size() != group.tasks.size()) {
            fail(ACL_ERROR_RT_MODEL_UPDATE_FAILED, "stream " + describe(stream) + ": the update has " +
                                                       std::to_string(update->operations.size()) +
                                                       " task(s), the task group " + std::to_string(group.tasks.size()));
        }
        for (std::size_t i = 0; i < group.tasks.size(); ++i) {
            if (update->operations[i].kind != group.kinds[i]) {
                fail(ACL_ERROR_RT_MODEL_UPDATE_FAILED,
                     "stream " + describe(stream) + ": task " + std::to_string(i) + " of the update is a " +
                         engine::to_string(update->operations[i].kind) + ", the group's a " + engine::to_string(group.kinds[i]));
            }
        }
        engine::GroupUpdate::apply(target, std::move(update));
    });
}

aclError aclmdlRICondHandleCreate(aclmdlRI modelRI, uint32_t defaultLaunchValue, aclmdlRICondHandleFlag flag,
                                  aclmdlRICondHandle* handle) {
    return call("aclmdlRICondHandleCreate", [&] {
        require(handle, "handle");
        State& s = state();
        std::shared_ptr<Model> model = model_handle(s, modelRI);
        const auto flag_value = raw_value(flag);
        if (flag_value != 0 && flag_value != ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT) {
            fail(ACL_ERROR_INVALID_PARAM, "flag " + std::to_string(flag_value) +
                                              " is neither 0 nor ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT");
        }
        std::shared_ptr<engine::Capture> capture;
        if (model->captured) {
            std::lock_guard lock(model->captured->mutex);
            capture = model->captured->capture;
        }
        if (!capture) fail(ACL_ERROR_RT_MODEL_CAPTURED, "modelRI " + describe(modelRI) + " is not being captured");
        auto* value = static_cast<std::uint64_t*>(
            s.runtime.memory().allocate(sizeof(std::uint64_t), engine::MemoryKind::device, &capture->device()));
        if (!value) fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "cannot allocate the condition's 8 bytes of device memory");
        *value = defaultLaunchValue;
        if (flag_value == ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT) capture->preset(value, defaultLaunchValue);
        *handle = s.cond_handles.add(std::make_shared<CondHandle>(CondHandle{model->captured, value}));
        std::lock_guard lock(model->mutex);
        model->cond_memory.push_back(value);
        model->cond_handles.push_back(*handle);
    });
}

aclError aclmdlRICondHandleGetCondPtr(aclmdlRICondHandle handle, uint64_t** ptr) {
    return call("aclmdlRICondHandleGetCondPtr", [&] {
        require(handle, "handle");
        require(ptr, "ptr");
        CondHandle* cond = state().cond_handles.reach(handle);
        if (!cond) fail(ACL_ERROR_RT_INVALID_HANDLE, "handle " + describe(handle) + " is not a live condition handle");
        *ptr = cond->value;
    });
}

aclError aclmdlRIAddCondTask(aclmdlRICondTaskParams params, aclrtStream stream, uint32_t flags) {
    return call("aclmdlRIAddCondTask", [&] {
        if (flags != 0) fail(ACL_ERROR_INVALID_PARAM, "flags " + std::to_string(flags) + " must be 0 (reserved)");
        require(params.handle, "params.handle");
        require(params.modelRIArray, "params.modelRIArray");
        State& s = state();
        std::shared_ptr<CondHandle> cond = s.cond_handles.share(params.handle);
        if (!cond) fail(ACL_ERROR_RT_INVALID_HANDLE, "params.handle " + describe(params.handle) + " is not a live condition handle");
        const auto type = raw_value(params.type);
        const bool sized = (type == ACL_MODEL_RI_COND_TYPE_IF && (params.size == 1 || params.size == 2)) ||
                           (type == ACL_MODEL_RI_COND_TYPE_WHILE && params.size == 1) ||
                           (type == ACL_MODEL_RI_COND_TYPE_SWITCH && params.size >= 1 && params.size <= 65536);
        if (type < ACL_MODEL_RI_COND_TYPE_IF || type > ACL_MODEL_RI_COND_TYPE_SWITCH)
            fail(ACL_ERROR_INVALID_PARAM, "params.type " + std::to_string(type) + " is not an aclmdlRICondTaskType");
        if (!sized) {
            fail(ACL_ERROR_INVALID_PARAM, "params.size " + std::to_string(params.size) +
                                              ": IF takes 1 or 2 branches, WHILE 1, SWITCH at least 1");
        }
        engine::Stream& target = target_stream(s, stream, "stream");
        engine::Capture& capture = capture_of(target, stream);
        if (cond->model.lock() != capture.model()) {
            fail(ACL_ERROR_INVALID_PARAM, "params.handle " + describe(params.handle) +
                                              " belongs to another model than the one stream " + describe(stream) + " captures");
        }
        std::shared_ptr<Model> parent = s.models.share(captured_handle(s, capture));
        std::vector<std::shared_ptr<engine::CapturedModel>> branches;
        std::vector<void*> handles;
        for (uint32_t i = 0; i < params.size; ++i) {
            auto branch = std::make_shared<Model>();
            branch->captured = std::make_shared<engine::CapturedModel>(true);
            branches.push_back(branch->captured);
            handles.push_back(s.models.add(std::move(branch)));
        }
        capture.add_condition(target, std::move(branches), cond->value, static_cast<engine::ConditionKind>(type));
        if (parent) {
            std::lock_guard lock(parent->mutex);
            parent->branches.insert(parent->branches.end(), handles.begin(), handles.end());
        }
        for (uint32_t i = 0; i < params.size; ++i) params.modelRIArray[i] = handles[i];
    });
}

aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char* path, uint32_t flags) {
    return call("aclmdlRIDebugJsonPrint", [&] {
        require(path, "path");
        if (flags != ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY && flags != ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE) {
            fail(ACL_ERROR_INVALID_PARAM, "flags " + std::to_string(flags) +
                                              " is neither ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY nor _VERBOSE");
        }
        State& s = state();
        std::shared_ptr<Model> model = model_handle(s, modelRI);
        if (!model->captured) fail(ACL_ERROR_RT_MODEL_CAPTURED, "modelRI " + describe(modelRI) + " holds no captured graph");
        const engine::CapturedModel& captured = *model->captured;
        std::lock_guard lock(model->captured->mutex);
        if (!captured.graph) fail(ACL_ERROR_RT_MODEL_CAPTURED, "modelRI " + describe(modelRI) + " holds no captured graph");
        std::ofstream out(path);
        if (!out) fail(ACL_ERROR_INVALID_PARAM, std::string("path \"") + path + "\" cannot be written");
        // Chrome trace events (chrome://tracing): a track per stream, a task after another per
        // dependency, flow arrows for the edges.
        out << "{\"modelRI\":" << json_text(describe(modelRI)) << ",\"traceEvents\":[";
        const auto& info = captured.tasks_info;
        std::vector<std::size_t> depth(info.size(), 0);
        bool first = true;
        for (std::size_t i = 0; i < info.size(); ++i) {
            for (std::size_t before : captured.tasks_after[i]) depth[i] = std::max(depth[i], depth[before] + 1);
            out << (first ? "" : ",") << "{\"name\":" << json_text(info[i].name.empty() ? type_name(info[i].kind) : info[i].name)
                << ",\"ph\":\"X\",\"pid\":0,\"tid\":" << info[i].stream_id << ",\"ts\":" << depth[i] * 10
                << ",\"dur\":8,\"args\":{\"task\":" << i << ",\"stream\":" << info[i].stream_id << ",\"type\":\""
                << type_name(info[i].kind) << "\",\"after\":[";
            for (std::size_t k = 0; k < captured.tasks_after[i].size(); ++k) out << (k ? "," : "") << captured.tasks_after[i][k];
            out << "]}}";
            first = false;
        }
        std::size_t flow = 0;
        for (std::size_t i = 0; i < info.size(); ++i) {
            for (std::size_t before : captured.tasks_after[i]) {
                if (info[before].stream_id == info[i].stream_id) continue;
                out << ",{\"name\":\"edge\",\"ph\":\"s\",\"id\":" << flow << ",\"pid\":0,\"tid\":" << info[before].stream_id
                    << ",\"ts\":" << depth[before] * 10 + 8 << "},{\"name\":\"edge\",\"ph\":\"f\",\"bp\":\"e\",\"id\":" << flow
                    << ",\"pid\":0,\"tid\":" << info[i].stream_id << ",\"ts\":" << depth[i] * 10 << "}";
                ++flow;
            }
        }
        out << "]}\n";
        if (!out) fail(ACL_ERROR_INVALID_PARAM, std::string("path \"") + path + "\": writing failed");
    });
}

}  // extern "C"
