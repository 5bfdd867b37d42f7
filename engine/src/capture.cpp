// Stream capture (capture.h): the capture's members and tasks, event marks, the completeness
// check, compiling to a CapturedGraph, conditional tasks and task group updates.
#include "canopy/engine/capture.h"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "acl/error_codes/acl_error_codes.h"
#include "acl/error_codes/rt_error_codes.h"
#include "canopy/engine/event.h"
#include "canopy/engine/failure.h"
#include "canopy/engine/memory.h"
#include "canopy/engine/stream.h"

namespace canopy::engine {

namespace detail {
std::atomic<int> running_captures{0};
}  // namespace detail

// A stream recording into a capture: its own (the origin, members_[0]) or one it joined.
class CaptureMember final : public TaskRecorder {
public:
    CaptureMember(Capture& capture, Stream& stream, std::vector<std::size_t> frontier)
        : capture(capture), stream(&stream), stream_id(stream.id()), frontier(std::move(frontier)) {}
    void record(Operation&& operation) override;

    Capture& capture;
    Stream* stream;  // nullptr once destroyed (a device reset)
    const int stream_id;
    std::vector<std::size_t> frontier;

private:
    void detach(Stream& destroyed) override;
};

namespace {

std::mutex registry_mutex;
std::vector<std::shared_ptr<Capture>> registry;  // the captures running

std::string stream_text(const CaptureMember& member) { return "stream " + std::to_string(member.stream_id); }

CaptureMember* member_of(const Stream& stream) { return dynamic_cast<CaptureMember*>(stream.recorder()); }

void add_unique(std::vector<std::size_t>& into, const std::vector<std::size_t>& from) {
    for (std::size_t task : from)
        if (std::find(into.begin(), into.end(), task) == into.end()) into.push_back(task);
}

void run_condition(const std::shared_ptr<std::vector<std::shared_ptr<CapturedGraph>>>& branches, const std::uint64_t* value,
                   ConditionKind kind, Replay& replay, GraphResume resume) {
    const std::uint64_t condition = *value;
    std::size_t branch = branches->size();
    switch (kind) {
        case ConditionKind::if_else:
            if (condition != 0) branch = 0;
            else if (branches->size() == 2) branch = 1;
            break;
        case ConditionKind::while_loop:
            if (condition != 0) branch = 0;
            break;
        case ConditionKind::switch_index:
            // A value past the last branch runs none.
            if (condition < branches->size()) branch = static_cast<std::size_t>(condition);
            break;
    }
    if (branch == branches->size()) {
        resume();
        return;
    }
    (*branches)[branch]->run_within(replay, [branches, value, kind, &replay, resume] {
        if (kind == ConditionKind::while_loop && !replay.failed()) run_condition(branches, value, kind, replay, resume);
        else resume();
    });
}

}  // namespace

void CaptureMember::record(Operation&& operation) {
    std::lock_guard lock(capture.mutex_);
    capture.refuse_if_invalidated();
    GraphTask task;
    // Callbacks (blocking ones wait for their subscriber) and notify or value waits defer their
    // completion: the replay runs them as asynchronous tasks, whose completion releases what
    // follows them, as CANN's model holds callback, notify and value wait tasks.
    task.deferring = operation.kind == OpKind::callback || operation.kind == OpKind::signal_wait;
    task.operation = std::move(operation);
    capture.append(*this, std::move(task), nullptr);
}

// The capture keeps the member (its tasks name the stream by id); the stream records no more.
void CaptureMember::detach(Stream& destroyed) {
    std::lock_guard lock(capture.mutex_);
    if (stream != &destroyed) return;
    destroyed.set_recorder(nullptr);
    stream = nullptr;
}

Capture::Capture(Stream& stream, std::shared_ptr<CapturedModel> model, CaptureMode mode)
    : mode(mode), thread(std::this_thread::get_id()), device_(stream.device()), model_(std::move(model)) {
    members_.push_back(std::make_unique<CaptureMember>(*this, stream, std::vector<std::size_t>{}));
}

Capture::~Capture() = default;

std::shared_ptr<Capture> Capture::begin(Stream& stream, std::shared_ptr<CapturedModel> model, CaptureMode mode) {
    auto capture = std::make_shared<Capture>(stream, model, mode);
    {
        std::lock_guard lock(model->mutex);
        model->capture = capture;
    }
    {
        std::lock_guard registry_lock(registry_mutex);
        registry.push_back(capture);
        detail::running_captures.fetch_add(1, std::memory_order_acq_rel);
    }
    stream.set_recorder(capture->members_.front().get());
    return capture;
}

Capture* Capture::of(const Stream& stream) {
    CaptureMember* member = member_of(stream);
    return member ? &member->capture : nullptr;
}

std::shared_ptr<Capture> Capture::running_on(const Device& device) {
    if (!captures_running()) return nullptr;
    std::lock_guard registry_lock(registry_mutex);
    for (const std::shared_ptr<Capture>& capture : registry)
        if (&capture->device_ == &device) return capture;
    return nullptr;
}

Stream* Capture::origin() {
    std::lock_guard lock(mutex_);
    return members_.front()->stream;
}

std::string Capture::invalidated() {
    std::lock_guard lock(mutex_);
    return invalidated_;
}

void Capture::invalidate(const std::string& reason) {
    std::lock_guard lock(mutex_);
    if (invalidated_.empty()) invalidated_ = reason;
}

void Capture::refuse_if_invalidated() const {
    if (!invalidated_.empty()) {
        throw OperationError(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, "the stream's capture was invalidated: " + invalidated_);
    }
}

// Appends a task after the member's frontier (mutex_ held).
void Capture::append(CaptureMember& member, GraphTask task, const char* name) {
    task.after = member.frontier;
    const std::size_t index = tasks_.size();
    if (open_group_ && group_member_ == &member) {
        task.updatable = true;
        open_group_->tasks.push_back(index);
        open_group_->kinds.push_back(task.operation.kind);
    }
    const OpKind kind = task.operation.kind;
    const char* label = name ? name : task.operation.name;
    task.stream_id = member.stream_id;
    tasks_.push_back(std::move(task));
    info_.push_back(CapturedTaskInfo{member.stream_id, kind, label ? label : ""});
    member.frontier.assign(1, index);
}

// Why the capture cannot be compiled, or {0, ""} (mutex_ held).
std::pair<int, std::string> Capture::check_complete() const {
    if (!invalidated_.empty()) return {ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, "the capture was invalidated: " + invalidated_};
    if (open_group_) {
        return {ACL_ERROR_STREAM_TASK_GROUP_STATUS,
                stream_text(*group_member_) + " has a task group still open (aclmdlRICaptureTaskGrpEnd)"};
    }
    // A replay counts as the most recent record of the events it records externally from its
    // enqueue on, so its own wait for one of them would wait for itself.
    for (const std::shared_ptr<Event>& recorded : external_records_) {
        if (std::find(external_waits_.begin(), external_waits_.end(), recorded.get()) != external_waits_.end()) {
            return {ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    "the capture both waits for an event recorded outside it and records that event for waiters "
                    "outside it (ACL_EVENT_RECORD_EXTERNAL): its replays would wait for themselves; use two events"};
        }
    }
    // Every task must lead to the origin's frontier.
    std::vector<bool> reached(tasks_.size(), false);
    std::vector<std::size_t> work = members_.front()->frontier;
    while (!work.empty()) {
        const std::size_t task = work.back();
        work.pop_back();
        if (reached[task]) continue;
        reached[task] = true;
        for (std::size_t before : tasks_[task].after) work.push_back(before);
    }
    for (const auto& member : members_) {
        for (std::size_t task = 0; task < tasks_.size(); ++task) {
            if (reached[task] || info_[task].stream_id != member->stream_id) continue;
            return {ACL_ERROR_RT_STREAM_UNJOINED,
                    stream_text(*member) + " joined the capture of " + stream_text(*members_.front()) +
                        " and did not join back: its task " + std::to_string(task) + " (" + to_string(info_[task].kind) +
                        ") is not followed by a wait of the origin stream on an event recorded after it"};
        }
    }
    for (const std::shared_ptr<CapturedModel>& branch : branches_) {
        std::lock_guard lock(branch->mutex);
        if (!branch->graph) {
            return {ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING,
                    "a branch model of a conditional task was not captured (aclmdlRICaptureToModelRIBegin ... "
                    "aclmdlRICaptureEnd) before the capture of its parent ended"};
        }
    }
    return {0, {}};
}

// The streams leave the capture; it no longer counts as running.
void Capture::release() {
    {
        std::lock_guard lock(mutex_);
        for (auto& member : members_)
            if (member->stream) member->stream->set_recorder(nullptr);
    }
    {
        std::lock_guard registry_lock(registry_mutex);
        if (released_) return;  // a device reset abandoned it while its end ran, or the other way round
        released_ = true;
        registry.erase(std::remove(registry.begin(), registry.end(), shared_from_this()), registry.end());
        detail::running_captures.fetch_sub(1, std::memory_order_acq_rel);
    }
    std::lock_guard lock(model_->mutex);
    model_->capture.reset();
}

bool Capture::running_in_mode(CaptureMode mode, bool own) {
    if (!captures_running()) return false;
    const std::thread::id self = std::this_thread::get_id();
    std::lock_guard registry_lock(registry_mutex);
    for (const std::shared_ptr<Capture>& capture : registry)
        if (capture->mode == mode && (!own || capture->thread == self)) return true;
    return false;
}

void Capture::abandon(const Device& device, const std::string& reason) {
    if (!captures_running()) return;
    std::vector<std::shared_ptr<Capture>> on_device;
    {
        std::lock_guard registry_lock(registry_mutex);
        for (const std::shared_ptr<Capture>& capture : registry)
            if (&capture->device_ == &device) on_device.push_back(capture);
    }
    for (const std::shared_ptr<Capture>& capture : on_device) {
        capture->invalidate(reason);
        capture->release();
    }
}

std::pair<int, std::string> Capture::end() {
    const std::shared_ptr<Capture> self = shared_from_this();  // the model lets go of it
    std::pair<int, std::string> problem;
    std::vector<GraphTask> tasks;
    std::vector<std::shared_ptr<Event>> external_records;
    std::vector<std::pair<std::uint64_t*, std::uint64_t>> presets;
    std::vector<CapturedTaskInfo> info;
    {
        std::lock_guard lock(mutex_);
        problem = check_complete();
        if (problem.first == 0) {
            tasks = std::move(tasks_);
            external_records = std::move(external_records_);
            presets = std::move(presets_);
            info = std::move(info_);
        }
    }
    if (problem.first == 0) {
        std::vector<std::vector<std::size_t>> after;
        for (const GraphTask& task : tasks) after.push_back(task.after);
        // Built without the capture's lock: entering the device's arena may run other work on
        // this thread (a host function that synchronizes the device asks whether a capture runs).
        auto graph = std::make_shared<CapturedGraph>(device_, std::move(tasks), std::move(external_records), std::move(presets));
        std::lock_guard model_lock(model_->mutex);
        model_->tasks_info = std::move(info);
        model_->tasks_after = std::move(after);
        model_->graph = std::move(graph);
    }
    release();
    return problem;
}

bool Capture::open_group(const Stream& stream) {
    CaptureMember* member = member_of(stream);
    std::lock_guard lock(mutex_);
    refuse_if_invalidated();
    if (open_group_) return false;
    open_group_ = std::make_shared<TaskGroup>();
    open_group_->model = model_;
    group_member_ = member;
    return true;
}

std::shared_ptr<TaskGroup> Capture::close_group(const Stream& stream) {
    CaptureMember* member = member_of(stream);
    std::lock_guard lock(mutex_);
    if (!open_group_ || group_member_ != member) return nullptr;
    group_member_ = nullptr;
    return std::move(open_group_);
}

void Capture::add_condition(const Stream& stream, std::vector<std::shared_ptr<CapturedModel>> branches,
                            const std::uint64_t* value, ConditionKind kind) {
    CaptureMember* member = member_of(stream);
    std::lock_guard lock(mutex_);
    refuse_if_invalidated();
    // The branches' graphs exist once their captures have ended, which the parent's end checks.
    auto graphs = std::make_shared<std::vector<std::shared_ptr<CapturedGraph>>>();
    GraphTask task;
    task.operation.kind = OpKind::host_func;
    task.start = [graphs, branches, value, kind](Replay& replay, GraphResume resume) {
        if (graphs->empty())
            for (const auto& branch : branches) graphs->push_back(branch->graph);
        run_condition(graphs, value, kind, replay, resume);
    };
    append(*member, std::move(task), "conditional task");
    branches_.insert(branches_.end(), branches.begin(), branches.end());
}

void Capture::preset(std::uint64_t* value, std::uint64_t initial) {
    std::lock_guard lock(mutex_);
    presets_.emplace_back(value, initial);
}

std::shared_ptr<Capture> Capture::marking(const Event& event) {
    std::lock_guard registry_lock(registry_mutex);
    for (const std::shared_ptr<Capture>& capture : registry) {
        std::lock_guard lock(capture->mutex_);
        if (capture->marks_.count(&event)) return capture;
    }
    return nullptr;
}

bool capture_record(Stream& stream, Event& event, bool external) {
    CaptureMember* member = member_of(stream);
    if (!member) {
        // An eager record replaces the event's mark in a capture: later waits follow it.
        if (captures_running()) {
            std::lock_guard registry_lock(registry_mutex);
            for (const std::shared_ptr<Capture>& capture : registry) {
                std::lock_guard lock(capture->mutex_);
                capture->marks_.erase(&event);
            }
        }
        return false;
    }
    std::shared_ptr<Event> shared = event.shared_from_this();
    Capture& capture = member->capture;
    std::lock_guard lock(capture.mutex_);
    capture.refuse_if_invalidated();
    if (capture.marks_.find(shared.get()) == capture.marks_.end()) capture.marked_.push_back(shared);
    capture.marks_[shared.get()] = member->frontier;
    if (external && std::find(capture.external_records_.begin(), capture.external_records_.end(), shared) ==
                        capture.external_records_.end()) {
        capture.external_records_.push_back(shared);
    }
    return true;
}

bool capture_wait(Stream& stream, Event& event, bool external, std::uint32_t timeout_s) {
    CaptureMember* member = member_of(stream);
    if (!member && !captures_running()) return false;
    std::shared_ptr<Event> shared = event.shared_from_this();
    std::shared_ptr<Capture> marking = external ? nullptr : Capture::marking(event);
    if (!member) {
        if (!marking) return false;
        // Waiting for an event a capture recorded pulls the stream into that capture.
        if (stream.recorder()) {
            throw OperationError(ACL_ERROR_RT_STREAM_MODEL, "stream " + std::to_string(stream.id()) +
                                                                " cannot join a capture: it is bound to a model being built or "
                                                                "updating a task group");
        }
        std::lock_guard lock(marking->mutex_);
        marking->refuse_if_invalidated();
        auto mark = marking->marks_.find(shared.get());
        std::vector<std::size_t> frontier = mark == marking->marks_.end() ? std::vector<std::size_t>{} : mark->second;
        marking->members_.push_back(std::make_unique<CaptureMember>(*marking, stream, std::move(frontier)));
        stream.set_recorder(marking->members_.back().get());
        return true;
    }
    Capture& capture = member->capture;
    if (marking && marking.get() != &capture) {
        throw OperationError(ACL_ERROR_STREAM_CAPTURE_CONFLICT, "stream " + std::to_string(stream.id()) +
                                                                    " captures, and the event it waits for was recorded by "
                                                                    "another capture: captures cannot be merged");
    }
    std::lock_guard lock(capture.mutex_);
    capture.refuse_if_invalidated();
    auto mark = capture.marks_.find(shared.get());
    if (!external && mark != capture.marks_.end()) {
        add_unique(member->frontier, mark->second);
        return true;
    }
    // An event recorded outside the capture: the replay waits for it when it gets there.
    capture.external_waits_.push_back(shared.get());
    GraphTask task;
    task.operation.kind = OpKind::event_wait;
    task.wait_event = shared;
    task.wait_timeout_ms = static_cast<std::int64_t>(timeout_s) * 1000;
    capture.append(*member, std::move(task), "external wait");
    return true;
}

bool capture_reset(Stream& stream, Event& event) {
    CaptureMember* member = member_of(stream);
    if (!member) return false;
    std::shared_ptr<Event> shared = event.shared_from_this();
    Capture& capture = member->capture;
    std::lock_guard lock(capture.mutex_);
    capture.refuse_if_invalidated();
    capture.marks_.erase(shared.get());
    GraphTask task;
    task.operation = Operation{OpKind::event_reset, 0, nullptr, [shared](OpRun&) { shared->reset_now(); }};
    capture.append(*member, std::move(task), "event reset");
    return true;
}

GroupUpdate* GroupUpdate::of(const Stream& stream) { return dynamic_cast<GroupUpdate*>(stream.recorder()); }

Stream* GroupUpdate::begin(Stream& stream, const std::shared_ptr<TaskGroup>& group, std::shared_ptr<CapturedGraph> graph) {
    auto update = std::make_unique<GroupUpdate>();
    update->group = group;
    update->graph = std::move(graph);
    std::lock_guard group_lock(group->mutex);
    // An update whose stream was destroyed was dropped with it (detach).
    if (group->update) return group->updating;
    group->update = std::move(update);
    group->updating = &stream;
    stream.set_recorder(group->update.get());
    return nullptr;
}

std::unique_ptr<GroupUpdate> GroupUpdate::end(Stream& stream) {
    GroupUpdate* recorder = of(stream);
    if (!recorder) return nullptr;
    stream.set_recorder(nullptr);
    const std::shared_ptr<TaskGroup> group = recorder->group;
    std::lock_guard group_lock(group->mutex);
    group->updating = nullptr;
    return std::move(group->update);
}

void GroupUpdate::apply(Stream& stream, std::unique_ptr<GroupUpdate> update) {
    // Applied in the order of the updating stream, as CANN's update tasks are.
    std::shared_ptr<GroupUpdate> shared(std::move(update));
    stream.enqueue(Operation{OpKind::host_func, 0, "task group update", [shared](OpRun&) {
                                 for (std::size_t i = 0; i < shared->operations.size(); ++i)
                                     shared->graph->update(shared->group->tasks[i], std::move(shared->operations[i]));
                             }});
}

// A stream destroyed in the middle of a task group update: the update is dropped.
void GroupUpdate::detach(Stream& stream) {
    stream.set_recorder(nullptr);
    const std::shared_ptr<TaskGroup> owner = group;
    std::lock_guard lock(owner->mutex);
    if (owner->update.get() == this) {
        owner->update.reset();
        owner->updating = nullptr;
    }
}

Operation checked_at_replay(Operation operation, std::vector<MemorySpan> spans, const MemoryRegistry& memory) {
    // Shared, not captured by value: the work's inline storage holds 64 bytes.
    struct Checked {
        Work work;
        std::vector<MemorySpan> spans;
        const MemoryRegistry& memory;
        const char* name;
        OpKind kind;
    };
    auto checked = std::make_shared<Checked>(Checked{std::move(operation.work), std::move(spans), memory,
                                                     operation.name, operation.kind});
    operation.work = [checked](OpRun& run) {
        for (const MemorySpan& span : checked->spans) {
            const auto at = reinterpret_cast<std::uintptr_t>(span.address);
            const std::optional<Allocation> allocation = checked->memory.find(span.address);
            if (!allocation || allocation->serial != span.serial || at + span.bytes > allocation->base + allocation->size) {
                char address[32];
                std::snprintf(address, sizeof address, "%p", span.address);
                throw OperationError(
                    ACL_ERROR_RT_DEVICE_MEM_ERROR,
                    std::string("a replay's ") + to_string(checked->kind) +
                        (checked->name ? std::string(" ") + checked->name : std::string()) + ": its " + span.role +
                        " " + address + " (" + std::to_string(span.bytes) + " bytes) is no longer allocated" +
                        (allocation ? " as it was at the capture (freed and allocated again since)" : "") +
                        ": the memory was freed after the capture, and the model still uses it");
            }
        }
        checked->work(run);
    };
    return operation;
}

}  // namespace canopy::engine
