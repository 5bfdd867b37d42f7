// Stream capture: aclmdlRICaptureBegin ... aclmdlRICaptureEnd record what is enqueued on a stream,
// and on the streams that join it by waiting for an event it recorded, into a model runtime
// instance; aclmdlRICaptureEnd compiles the tasks into a persistent tbb::flow graph
// (engine/captured_graph.h) that aclmdlRIExecuteAsync replays as one operation of a stream.
//
// While a stream captures, its recorder (engine/task_recorder.h) appends each operation as a task
// that depends on the stream's frontier: its previous task, plus what the events it waited for
// covered. An event recorded on a capturing stream marks that frontier; a wait on a marked event
// adds the mark to the waiting stream's frontier (an edge of the graph) and pulls a stream that
// was not capturing into the capture. Waits on events the capture did not record, and resets,
// become tasks that act on the event when the replay reaches them. A capture ends well only if
// every task is an ancestor of the origin stream's frontier: each joined stream has joined back.
#include <algorithm>
#include <fstream>
#include <thread>
#include <unordered_map>

#include "canopy/engine/captured_graph.h"
#include "canopy/engine/failure.h"
#include "canopy/engine/memory.h"
#include "model_build.h"

namespace canopy::api {

std::atomic<int> running_captures{0};

struct CaptureMember;

struct TaskGroup;

// A stream between aclmdlRICaptureTaskUpdateBegin and End: what it is given replaces a task group.
struct GroupUpdate final : engine::TaskRecorder {
    void record(engine::Operation&& operation) override { operations.push_back(std::move(operation)); }
    void detach(engine::Stream& stream) override;
    std::shared_ptr<TaskGroup> group;
    std::shared_ptr<engine::CapturedGraph> graph;
    std::vector<engine::Operation> operations;
};

struct TaskGroup {
    std::weak_ptr<Model> model;
    std::vector<std::size_t> tasks;
    std::vector<engine::OpKind> kinds;
    // The update in progress (CANN updates a group from one stream at a time). Owned here, not by
    // the stream, so that a stream destroyed mid-update leaves nothing behind: the update goes with
    // the stream's destroy, the group's next update or the group.
    std::mutex mutex;  // guards the three below
    std::unique_ptr<GroupUpdate> update;
    engine::Stream* updating = nullptr;
    void* updating_handle = nullptr;
};

struct CondHandle {
    std::weak_ptr<Model> model;
    std::uint64_t* value;
};

struct Capture {
    std::mutex mutex;  // guards everything below
    aclmdlRICaptureMode mode;
    std::thread::id thread;  // of aclmdlRICaptureBegin
    engine::Device* device;
    std::shared_ptr<Model> model;
    void* model_handle;
    std::string invalidated;  // why the capture can no longer end well (empty: it can)
    std::vector<engine::GraphTask> tasks;
    std::vector<CapturedTaskInfo> info;
    std::vector<std::unique_ptr<CaptureMember>> members;  // [0]: the origin stream
    // Per event recorded by the capture: the frontier of the recording stream at the record. The
    // events are kept alive until the capture ends, so that no new event takes a marked address.
    std::unordered_map<const engine::Event*, std::vector<std::size_t>> marks;
    std::vector<std::shared_ptr<engine::Event>> marked;
    std::vector<std::shared_ptr<engine::Event>> external_records;
    std::vector<const engine::Event*> external_waits;
    std::vector<std::pair<std::uint64_t*, std::uint64_t>> presets;
    std::shared_ptr<TaskGroup> open_group;
    CaptureMember* group_member = nullptr;
    std::vector<std::shared_ptr<Model>> branches;  // of its conditional tasks: captured by its end
};

struct CaptureMember final : engine::TaskRecorder {
    CaptureMember(Capture& capture, engine::Stream& stream, void* handle, std::vector<std::size_t> frontier)
        : capture(capture), stream(&stream), handle(handle), frontier(std::move(frontier)) {}
    void record(engine::Operation&& operation) override;
    // A capturing stream is destroyed only by its device's reset: the capture is left as it is.
    void detach(engine::Stream&) override {}

    Capture& capture;
    engine::Stream* stream;
    void* const handle;
    std::vector<std::size_t> frontier;
};

namespace {

// The calling thread's capture mode (aclmdlRICaptureThreadExchangeMode) and how many captures it
// began in GLOBAL or THREAD_LOCAL mode; captures in GLOBAL mode anywhere in the process.
thread_local aclmdlRICaptureMode thread_mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL;
thread_local int own_strict_captures = 0;
std::atomic<int> global_captures{0};

std::mutex registry_mutex;
std::vector<std::shared_ptr<Capture>> registry;  // the captures running

std::string stream_text(const CaptureMember& member) { return "stream " + describe(member.handle); }

CaptureMember* member_of(const engine::Stream& stream) {
    return dynamic_cast<CaptureMember*>(stream.recorder());
}

void add_unique(std::vector<std::size_t>& into, const std::vector<std::size_t>& from) {
    for (std::size_t task : from)
        if (std::find(into.begin(), into.end(), task) == into.end()) into.push_back(task);
}

// Appends a task after the member's frontier (capture.mutex held).
void append(CaptureMember& member, engine::GraphTask task, const char* name) {
    Capture& capture = member.capture;
    task.after = member.frontier;
    const std::size_t index = capture.tasks.size();
    if (capture.open_group && capture.group_member == &member) {
        task.updatable = true;
        capture.open_group->tasks.push_back(index);
        capture.open_group->kinds.push_back(task.operation.kind);
    }
    const engine::OpKind kind = task.operation.kind;
    const char* label = name ? name : task.operation.name;
    task.stream_id = member.stream->id();
    capture.tasks.push_back(std::move(task));
    capture.info.push_back(CapturedTaskInfo{member.stream->id(), kind, label ? label : ""});
    member.frontier.assign(1, index);
}

void refuse_if_invalidated(const Capture& capture) {
    if (!capture.invalidated.empty()) {
        throw engine::OperationError(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
                                     "the stream's capture was invalidated: " + capture.invalidated);
    }
}

// The capture holding a mark for `event`, if one is running.
std::shared_ptr<Capture> capture_marking(const engine::Event& event) {
    std::lock_guard registry_lock(registry_mutex);
    for (const std::shared_ptr<Capture>& capture : registry) {
        std::lock_guard lock(capture->mutex);
        if (capture->marks.count(&event)) return capture;
    }
    return nullptr;
}

void forget_marks(const engine::Event& event) {
    std::lock_guard registry_lock(registry_mutex);
    for (const std::shared_ptr<Capture>& capture : registry) {
        std::lock_guard lock(capture->mutex);
        capture->marks.erase(&event);
    }
}

std::shared_ptr<engine::Event> shared_event(State& state, aclrtEvent event) {
    std::shared_ptr<engine::Event> shared = event ? state.events.share(event) : nullptr;
    if (!shared) event_handle(state, event, "event");  // fails with the right code and text
    return shared;
}

std::shared_ptr<Model> model_handle(State& state, aclmdlRI handle) {
    require(handle, "modelRI");
    std::shared_ptr<Model> model = state.models.share(handle);
    if (!model) fail(ACL_ERROR_RT_INVALID_HANDLE, "modelRI " + describe(handle) + " is not a live model runtime instance");
    return model;
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
void begin(State& state, aclrtStream stream, std::shared_ptr<Model> model, void* model_handle, aclmdlRICaptureMode mode) {
    if (!stream) fail(ACL_ERROR_INVALID_PARAM, "stream is NULL: the default stream cannot be captured");
    engine::Stream& target = target_stream(state, stream, "stream");
    if (stream == default_stream_handle(state, target.context()))
        fail(ACL_ERROR_INVALID_PARAM, "stream " + describe(stream) + " is the default stream, which cannot be captured");
    if (member_of(target)) fail(ACL_ERROR_RT_STREAM_CAPTURED, "stream " + describe(stream) + " is already capturing");
    if (target.recorder()) {
        fail(ACL_ERROR_RT_STREAM_MODEL, "stream " + describe(stream) +
                                            " is bound to a model being built or updating a task group");
    }
    auto capture = std::make_shared<Capture>();
    capture->mode = mode;
    capture->thread = std::this_thread::get_id();
    capture->device = &target.device();
    capture->model = model;
    capture->model_handle = model_handle;
    capture->members.push_back(std::make_unique<CaptureMember>(*capture, target, stream, std::vector<std::size_t>{}));
    {
        std::lock_guard lock(model->mutex);
        model->capture = capture;
    }
    {
        std::lock_guard registry_lock(registry_mutex);
        registry.push_back(capture);
        running_captures.fetch_add(1, std::memory_order_acq_rel);
    }
    if (mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED) ++own_strict_captures;
    if (mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) global_captures.fetch_add(1, std::memory_order_acq_rel);
    target.set_recorder(capture->members.front().get());
}

// The streams leave the capture; it no longer counts as running.
void release(State& state, const std::shared_ptr<Capture>& capture) {
    {
        std::lock_guard lock(capture->mutex);
        for (auto& member : capture->members) {
            // A stream destroyed meanwhile (a device reset) is not touched.
            if (state.streams.reach(member->handle) == member->stream) member->stream->set_recorder(nullptr);
        }
    }
    {
        std::lock_guard registry_lock(registry_mutex);
        registry.erase(std::remove(registry.begin(), registry.end(), capture), registry.end());
        running_captures.fetch_sub(1, std::memory_order_acq_rel);
    }
    if (capture->mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED) --own_strict_captures;
    if (capture->mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) global_captures.fetch_sub(1, std::memory_order_acq_rel);
    std::lock_guard lock(capture->model->mutex);
    capture->model->capture.reset();
}

// Why the capture cannot be compiled, or empty (capture.mutex held).
std::pair<aclError, std::string> check_complete(const Capture& capture) {
    if (!capture.invalidated.empty())
        return {ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, "the capture was invalidated: " + capture.invalidated};
    if (capture.open_group) {
        return {ACL_ERROR_STREAM_TASK_GROUP_STATUS, stream_text(*capture.group_member) +
                                                        " has a task group still open (aclmdlRICaptureTaskGrpEnd)"};
    }
    // A replay counts as the most recent record of the events it records externally from its
    // enqueue on, so its own wait for one of them would wait for itself.
    for (const std::shared_ptr<engine::Event>& recorded : capture.external_records) {
        if (std::find(capture.external_waits.begin(), capture.external_waits.end(), recorded.get()) !=
            capture.external_waits.end()) {
            return {ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "the capture both waits for an event recorded outside it and records that event for waiters "
                    "outside it (ACL_EVENT_RECORD_EXTERNAL): its replays would wait for themselves; use two events"};
        }
    }
    // Every task must lead to the origin's frontier.
    std::vector<bool> reached(capture.tasks.size(), false);
    std::vector<std::size_t> work = capture.members.front()->frontier;
    while (!work.empty()) {
        const std::size_t task = work.back();
        work.pop_back();
        if (reached[task]) continue;
        reached[task] = true;
        for (std::size_t before : capture.tasks[task].after) work.push_back(before);
    }
    for (const auto& member : capture.members) {
        for (std::size_t task = 0; task < capture.tasks.size(); ++task) {
            if (reached[task] || capture.info[task].stream_id != member->stream->id()) continue;
            return {ACL_ERROR_RT_STREAM_UNJOINED,
                    stream_text(*member) + " joined the capture of " + stream_text(*capture.members.front()) +
                        " and did not join back: its task " + std::to_string(task) + " (" +
                        engine::to_string(capture.info[task].kind) +
                        ") is not followed by a wait of the origin stream on an event recorded after it"};
        }
    }
    for (std::size_t i = 0; i < capture.branches.size(); ++i) {
        std::lock_guard lock(capture.branches[i]->mutex);
        if (!capture.branches[i]->graph) {
            return {ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING,
                    "a branch model of a conditional task was not captured (aclmdlRICaptureToModelRIBegin ... "
                    "aclmdlRICaptureEnd) before the capture of its parent ended"};
        }
    }
    return {ACL_SUCCESS, {}};
}

void run_condition(const std::shared_ptr<std::vector<std::shared_ptr<engine::CapturedGraph>>>& branches,
                   const std::uint64_t* value, aclmdlRICondTaskType type, engine::Replay& replay,
                   engine::GraphResume resume) {
    const std::uint64_t condition = *value;
    std::size_t branch = branches->size();
    switch (type) {
        case ACL_MODEL_RI_COND_TYPE_IF:
            if (condition != 0) branch = 0;
            else if (branches->size() == 2) branch = 1;
            break;
        case ACL_MODEL_RI_COND_TYPE_WHILE:
            if (condition != 0) branch = 0;
            break;
        case ACL_MODEL_RI_COND_TYPE_SWITCH:
            // A value past the last branch runs none.
            if (condition < branches->size()) branch = static_cast<std::size_t>(condition);
            break;
    }
    if (branch == branches->size()) {
        resume();
        return;
    }
    (*branches)[branch]->run_within(replay, [branches, value, type, &replay, resume] {
        if (type == ACL_MODEL_RI_COND_TYPE_WHILE && !replay.failed()) run_condition(branches, value, type, replay, resume);
        else resume();
    });
}

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

void CaptureMember::record(engine::Operation&& operation) {
    std::lock_guard lock(capture.mutex);
    refuse_if_invalidated(capture);
    engine::GraphTask task;
    // Callbacks (blocking ones wait for their subscriber) and notify or value waits defer their
    // completion: the replay runs them as asynchronous tasks, whose completion releases what
    // follows them, as CANN's model holds callback, notify and value wait tasks.
    task.deferring = operation.kind == engine::OpKind::callback || operation.kind == engine::OpKind::signal_wait;
    task.operation = std::move(operation);
    append(*this, std::move(task), nullptr);
}

bool capturing(const engine::Stream& stream) { return member_of(stream) != nullptr; }

// A stream destroyed in the middle of a task group update: the update is dropped.
void GroupUpdate::detach(engine::Stream& stream) {
    stream.set_recorder(nullptr);
    const std::shared_ptr<TaskGroup> group = this->group;
    std::lock_guard lock(group->mutex);
    if (group->update.get() == this) {
        group->update.reset();
        group->updating = nullptr;
        group->updating_handle = nullptr;
    }
}

void refuse_unsafe_during_capture(const char* what) {
    if (!captures_running() || thread_mode == ACL_MODEL_RI_CAPTURE_MODE_RELAXED) return;
    const bool own = own_strict_captures > 0;
    if (own || (thread_mode == ACL_MODEL_RI_CAPTURE_MODE_GLOBAL && global_captures.load(std::memory_order_acquire) > 0)) {
        fail(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
             std::string(what) + " is not allowed while " +
                 (own ? "this thread captures a stream" : "a stream captures in ACL_MODEL_RI_CAPTURE_MODE_GLOBAL") +
                 ": switch this thread to ACL_MODEL_RI_CAPTURE_MODE_RELAXED (aclmdlRICaptureThreadExchangeMode)");
    }
}

void refuse_capturing_stream(const engine::Stream& stream, const char* what) {
    CaptureMember* member = member_of(stream);
    if (!member) return;
    std::lock_guard lock(member->capture.mutex);
    const std::string reason = std::string(what) + " " + stream_text(*member) + " while it captures";
    if (member->capture.invalidated.empty()) member->capture.invalidated = reason;
    fail(ACL_ERROR_RT_STREAM_CAPTURED, std::string("cannot ") + reason + ": the capture is now invalidated");
}

void refuse_device_sync_during_capture(const engine::Device& device) {
    if (!captures_running()) return;
    std::lock_guard registry_lock(registry_mutex);
    for (const std::shared_ptr<Capture>& capture : registry) {
        if (capture->device != &device) continue;
        fail(ACL_ERROR_RT_STREAM_CAPTURED, "cannot synchronize device " + std::to_string(device.id()) +
                                               " while a stream of it captures (stream " +
                                               describe(capture->members.front()->handle) + ")");
    }
}

bool capture_record(State& state, engine::Stream& stream, aclrtEvent event, bool external) {
    CaptureMember* member = member_of(stream);
    if (!member) {
        // An eager record replaces the event's mark in a capture: later waits follow it.
        if (captures_running()) forget_marks(event_handle(state, event, "event"));
        return false;
    }
    std::shared_ptr<engine::Event> shared = shared_event(state, event);
    Capture& capture = member->capture;
    std::lock_guard lock(capture.mutex);
    refuse_if_invalidated(capture);
    if (capture.marks.find(shared.get()) == capture.marks.end()) capture.marked.push_back(shared);
    capture.marks[shared.get()] = member->frontier;
    if (external && std::find(capture.external_records.begin(), capture.external_records.end(), shared) ==
                        capture.external_records.end()) {
        capture.external_records.push_back(shared);
    }
    return true;
}

bool capture_wait(State& state, engine::Stream& stream, aclrtStream handle, aclrtEvent event, bool external,
                  std::uint32_t timeout_s) {
    CaptureMember* member = member_of(stream);
    if (!member && !captures_running()) return false;
    std::shared_ptr<engine::Event> shared = shared_event(state, event);
    std::shared_ptr<Capture> marking = external ? nullptr : capture_marking(*shared);
    if (!member) {
        if (!marking) return false;
        // Waiting for an event a capture recorded pulls the stream into that capture.
        if (stream.recorder()) {
            fail(ACL_ERROR_RT_STREAM_MODEL, "stream " + describe(handle) +
                                                " cannot join a capture: it is bound to a model being built or updating a task group");
        }
        std::lock_guard lock(marking->mutex);
        refuse_if_invalidated(*marking);
        auto mark = marking->marks.find(shared.get());
        std::vector<std::size_t> frontier = mark == marking->marks.end() ? std::vector<std::size_t>{} : mark->second;
        marking->members.push_back(std::make_unique<CaptureMember>(*marking, stream, handle, std::move(frontier)));
        stream.set_recorder(marking->members.back().get());
        return true;
    }
    Capture& capture = member->capture;
    if (marking && marking.get() != &capture) {
        fail(ACL_ERROR_STREAM_CAPTURE_CONFLICT, "stream " + describe(handle) + " captures, and event " + describe(event) +
                                                    " was recorded by another capture: captures cannot be merged");
    }
    std::lock_guard lock(capture.mutex);
    refuse_if_invalidated(capture);
    auto mark = capture.marks.find(shared.get());
    if (!external && mark != capture.marks.end()) {
        add_unique(member->frontier, mark->second);
        return true;
    }
    // An event recorded outside the capture: the replay waits for it when it gets there.
    capture.external_waits.push_back(shared.get());
    engine::GraphTask task;
    task.operation.kind = engine::OpKind::event_wait;
    task.wait_event = shared;
    task.wait_timeout_ms = static_cast<std::int64_t>(timeout_s) * 1000;
    append(*member, std::move(task), "external wait");
    return true;
}

bool capture_reset(State& state, engine::Stream& stream, aclrtEvent event) {
    CaptureMember* member = member_of(stream);
    if (!member) return false;
    std::shared_ptr<engine::Event> shared = shared_event(state, event);
    Capture& capture = member->capture;
    std::lock_guard lock(capture.mutex);
    refuse_if_invalidated(capture);
    capture.marks.erase(shared.get());
    engine::GraphTask task;
    task.operation = engine::Operation{engine::OpKind::event_reset, 0, nullptr, [shared](engine::OpRun&) { shared->reset_now(); }};
    append(*member, std::move(task), "event reset");
    return true;
}

void execute_captured(Model& model, aclmdlRI handle, engine::Stream& stream, aclrtStream stream_handle) {
    std::shared_ptr<engine::CapturedGraph> graph;
    {
        std::lock_guard lock(model.mutex);
        if (model.capture) fail(ACL_ERROR_RT_MODEL_CAPTURED, "modelRI " + describe(handle) + " is still being captured (aclmdlRICaptureEnd)");
        if (model.branch) {
            fail(ACL_ERROR_INVALID_PARAM, "modelRI " + describe(handle) +
                                              " is a branch of a conditional task: it runs when its parent model runs");
        }
        graph = model.graph;
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
    std::vector<void*> branches, cond_handles, memory;
    {
        std::lock_guard lock(model.mutex);
        graph = std::move(model.graph);
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
        std::lock_guard lock(model->mutex);
        if (model->capture) {
            fail(ACL_ERROR_RT_MODEL_CAPTURED, "modelRI " + describe(handle) +
                                                  " is being captured: end the capture first (aclmdlRICaptureEnd)");
        }
        if (model->branch) {
            fail(ACL_ERROR_INVALID_PARAM, "modelRI " + describe(handle) +
                                              " is a branch of a conditional task: it is destroyed with its parent");
        }
        graph = model->graph;
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
        void* handle = s.models.add(model);
        try {
            begin(s, stream, model, handle, mode);
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
        {
            std::lock_guard lock(model->mutex);
            if (!model->branch) {
                fail(ACL_ERROR_INVALID_PARAM, "modelRI " + describe(modelRI) +
                                                  " is not a branch of a conditional task (aclmdlRIAddCondTask)");
            }
            if (model->capture || model->graph)
                fail(ACL_ERROR_RT_MODEL_CAPTURED, "modelRI " + describe(modelRI) + " is captured already");
        }
        begin(s, stream, model, modelRI, mode);
    });
}

aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus* status, aclmdlRI* modelRI) {
    return call("aclmdlRICaptureGetInfo", [&] {
        require(status, "status");
        require(modelRI, "modelRI");
        State& s = state();
        CaptureMember* member = member_of(target_stream(s, stream, "stream"));
        if (!member) {
            *status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
            *modelRI = nullptr;
            return;
        }
        std::lock_guard lock(member->capture.mutex);
        *status = member->capture.invalidated.empty() ? ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE
                                                      : ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED;
        *modelRI = member->capture.model_handle;
    });
}

aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI) {
    return call("aclmdlRICaptureEnd", [&] {
        require(modelRI, "modelRI");
        State& s = state();
        engine::Stream& target = target_stream(s, stream, "stream");
        CaptureMember* member = member_of(target);
        if (!member) fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "stream " + describe(stream) + " is not capturing (aclmdlRICaptureBegin)");
        Capture& capture = member->capture;
        std::shared_ptr<Capture> owned;
        {
            std::lock_guard lock(capture.mutex);
            if (member != capture.members.front().get()) {
                fail(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
                     "stream " + describe(stream) + " joined the capture of " + stream_text(*capture.members.front()) +
                         " through an event: end the capture on that stream");
            }
            if (capture.mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED && capture.thread != std::this_thread::get_id()) {
                fail(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD,
                     "stream " + describe(stream) +
                         " captures in GLOBAL or THREAD_LOCAL mode: the capture must end on the thread that began it");
            }
            owned = capture.model->capture;
        }
        std::pair<aclError, std::string> problem;
        std::shared_ptr<engine::CapturedGraph> graph;
        {
            std::lock_guard lock(capture.mutex);
            problem = check_complete(capture);
            if (problem.first == ACL_SUCCESS) {
                std::vector<std::vector<std::size_t>> after;
                for (const engine::GraphTask& task : capture.tasks) after.push_back(task.after);
                graph = std::make_shared<engine::CapturedGraph>(*capture.device, std::move(capture.tasks),
                                                                std::move(capture.external_records),
                                                                std::move(capture.presets));
                std::lock_guard model_lock(capture.model->mutex);
                capture.model->tasks_info = std::move(capture.info);
                capture.model->tasks_after = std::move(after);
                capture.model->graph = std::move(graph);
            }
        }
        release(s, owned);
        if (problem.first != ACL_SUCCESS) {
            // The instance held no graph; a branch model stays, uncaptured, with its parent.
            if (!capture.model->branch) s.models.remove(capture.model_handle);
            fail(problem.first, "stream " + describe(stream) + ": " + problem.second);
        }
        *modelRI = capture.model_handle;
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
        CaptureMember* member = member_of(target_stream(s, stream, "stream"));
        if (!member) fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "stream " + describe(stream) + " is not capturing");
        std::lock_guard lock(member->capture.mutex);
        refuse_if_invalidated(member->capture);
        if (member->capture.open_group) {
            fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "stream " + describe(stream) +
                                                         ": a task group is open already in this capture (aclmdlRICaptureTaskGrpEnd)");
        }
        member->capture.open_group = std::make_shared<TaskGroup>();
        member->capture.open_group->model = member->capture.model;
        member->capture.group_member = member;
    });
}

aclError aclmdlRICaptureTaskGrpEnd(aclrtStream stream, aclrtTaskGrp* handle) {
    return call("aclmdlRICaptureTaskGrpEnd", [&] {
        require(handle, "handle");
        State& s = state();
        CaptureMember* member = member_of(target_stream(s, stream, "stream"));
        if (!member) fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "stream " + describe(stream) + " is not capturing");
        std::lock_guard lock(member->capture.mutex);
        if (!member->capture.open_group || member->capture.group_member != member) {
            fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "stream " + describe(stream) +
                                                         " has no open task group (aclmdlRICaptureTaskGrpBegin)");
        }
        *handle = s.task_groups.add(std::move(member->capture.open_group));
        member->capture.open_group.reset();
        member->capture.group_member = nullptr;
    });
}

aclError aclmdlRICaptureTaskUpdateBegin(aclrtStream stream, aclrtTaskGrp handle) {
    return call("aclmdlRICaptureTaskUpdateBegin", [&] {
        State& s = state();
        engine::Stream& target = target_stream(s, stream, "stream");
        require(handle, "handle");
        std::shared_ptr<TaskGroup> group = s.task_groups.share(handle);
        if (!group) fail(ACL_ERROR_RT_INVALID_HANDLE, "handle " + describe(handle) + " is not a live task group");
        if (member_of(target)) fail(ACL_ERROR_RT_STREAM_CAPTURED, "stream " + describe(stream) + " is capturing");
        if (target.recorder()) {
            fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "stream " + describe(stream) +
                                                         " already records (a task update or a model build)");
        }
        std::shared_ptr<Model> model = group->model.lock();
        std::shared_ptr<engine::CapturedGraph> graph;
        if (model) {
            std::lock_guard lock(model->mutex);
            graph = model->graph;
        }
        if (!graph) fail(ACL_ERROR_RT_MODEL_CAPTURED, "handle " + describe(handle) + ": its model's capture has not ended or the model was destroyed");
        auto update = std::make_unique<GroupUpdate>();
        update->group = group;
        update->graph = graph;
        std::lock_guard group_lock(group->mutex);
        if (group->update) {
            if (s.streams.reach(group->updating_handle) == group->updating &&
                group->updating->recorder() == group->update.get()) {
                fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "handle " + describe(handle) + ": the task group is being updated on stream " +
                                                             describe(group->updating_handle) + " (aclmdlRICaptureTaskUpdateEnd)");
            }
            group->update.reset();  // its stream was destroyed in the middle of the update
        }
        group->update = std::move(update);
        group->updating = &target;
        group->updating_handle = stream;
        target.set_recorder(group->update.get());
    });
}

aclError aclmdlRICaptureTaskUpdateEnd(aclrtStream stream) {
    return call("aclmdlRICaptureTaskUpdateEnd", [&] {
        State& s = state();
        engine::Stream& target = target_stream(s, stream, "stream");
        auto* recorder = dynamic_cast<GroupUpdate*>(target.recorder());
        if (!recorder) {
            fail(ACL_ERROR_STREAM_TASK_GROUP_STATUS, "stream " + describe(stream) +
                                                         " is not updating a task group (aclmdlRICaptureTaskUpdateBegin)");
        }
        target.set_recorder(nullptr);
        std::unique_ptr<GroupUpdate> update;
        {
            std::lock_guard group_lock(recorder->group->mutex);
            update = std::move(recorder->group->update);
            recorder->group->updating = nullptr;
            recorder->group->updating_handle = nullptr;
        }
        const TaskGroup& group = *update->group;
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
        // Applied in the order of the updating stream, as CANN's update tasks are.
        std::shared_ptr<GroupUpdate> shared(std::move(update));
        target.enqueue(engine::Operation{engine::OpKind::host_func, 0, "task group update", [shared](engine::OpRun&) {
                                             for (std::size_t i = 0; i < shared->operations.size(); ++i)
                                                 shared->graph->update(shared->group->tasks[i], std::move(shared->operations[i]));
                                         }});
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
        std::shared_ptr<Capture> capture;
        {
            std::lock_guard lock(model->mutex);
            capture = model->capture;
        }
        if (!capture) fail(ACL_ERROR_RT_MODEL_CAPTURED, "modelRI " + describe(modelRI) + " is not being captured");
        auto* value = static_cast<std::uint64_t*>(
            s.runtime.memory().allocate(sizeof(std::uint64_t), engine::MemoryKind::device, capture->device));
        if (!value) fail(ACL_ERROR_RT_MEMORY_ALLOCATION, "cannot allocate the condition's 8 bytes of device memory");
        *value = defaultLaunchValue;
        {
            std::lock_guard lock(capture->mutex);
            if (flag_value == ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT) capture->presets.emplace_back(value, defaultLaunchValue);
        }
        *handle = s.cond_handles.add(std::make_shared<CondHandle>(CondHandle{model, value}));
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
        CaptureMember* member = member_of(target);
        if (!member) fail(ACL_ERROR_RT_STREAM_NOT_CAPTURED, "stream " + describe(stream) + " is not capturing");
        Capture& capture = member->capture;
        if (cond->model.lock() != capture.model) {
            fail(ACL_ERROR_INVALID_PARAM, "params.handle " + describe(params.handle) +
                                              " belongs to another model than the one stream " + describe(stream) + " captures");
        }
        std::vector<std::shared_ptr<Model>> branches;
        std::vector<void*> handles;
        for (uint32_t i = 0; i < params.size; ++i) {
            auto branch = std::make_shared<Model>();
            branch->branch = true;
            handles.push_back(s.models.add(branch));
            branches.push_back(std::move(branch));
        }
        {
            std::lock_guard lock(capture.mutex);
            refuse_if_invalidated(capture);
            // The branches' graphs exist once their captures have ended, which the parent's end checks.
            auto graphs = std::make_shared<std::vector<std::shared_ptr<engine::CapturedGraph>>>();
            engine::GraphTask task;
            task.operation.kind = engine::OpKind::host_func;
            const std::uint64_t* value = cond->value;
            const auto cond_type = static_cast<aclmdlRICondTaskType>(type);
            task.start = [graphs, branches, value, cond_type](engine::Replay& replay, engine::GraphResume resume) {
                if (graphs->empty())
                    for (const auto& branch : branches) graphs->push_back(branch->graph);
                run_condition(graphs, value, cond_type, replay, resume);
            };
            append(*member, std::move(task), "conditional task");
            capture.branches.insert(capture.branches.end(), branches.begin(), branches.end());
        }
        {
            std::lock_guard lock(capture.model->mutex);
            capture.model->branches.insert(capture.model->branches.end(), handles.begin(), handles.end());
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
        std::lock_guard lock(model->mutex);
        if (!model->graph) fail(ACL_ERROR_RT_MODEL_CAPTURED, "modelRI " + describe(modelRI) + " holds no captured graph");
        std::ofstream out(path);
        if (!out) fail(ACL_ERROR_INVALID_PARAM, std::string("path \"") + path + "\" cannot be written");
        // Chrome trace events (chrome://tracing): a track per stream, a task after another per
        // dependency, flow arrows for the edges.
        out << "{\"modelRI\":" << json_text(describe(modelRI)) << ",\"traceEvents\":[";
        const auto& info = model->tasks_info;
        std::vector<std::size_t> depth(info.size(), 0);
        bool first = true;
        for (std::size_t i = 0; i < info.size(); ++i) {
            for (std::size_t before : model->tasks_after[i]) depth[i] = std::max(depth[i], depth[before] + 1);
            out << (first ? "" : ",") << "{\"name\":" << json_text(info[i].name.empty() ? type_name(info[i].kind) : info[i].name)
                << ",\"ph\":\"X\",\"pid\":0,\"tid\":" << info[i].stream_id << ",\"ts\":" << depth[i] * 10
                << ",\"dur\":8,\"args\":{\"task\":" << i << ",\"stream\":" << info[i].stream_id << ",\"type\":\""
                << type_name(info[i].kind) << "\",\"after\":[";
            for (std::size_t k = 0; k < model->tasks_after[i].size(); ++k) out << (k ? "," : "") << model->tasks_after[i][k];
            out << "]}}";
            first = false;
        }
        std::size_t flow = 0;
        for (std::size_t i = 0; i < info.size(); ++i) {
            for (std::size_t before : model->tasks_after[i]) {
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
