#pragma once
// Stream capture: what is enqueued on a capturing stream, and on the streams that join it by
// waiting for an event it recorded, becomes the tasks of a model instead of running; the end of
// the capture compiles them into a persistent tbb::flow graph (captured_graph.h) that the model's
// executions replay as one operation of a stream.
//
// While a stream captures, its recorder (a member of the capture) appends each operation as a task
// that depends on the stream's frontier: its previous task, plus what the events it waited for
// covered. An event recorded on a capturing stream marks that frontier; a wait on a marked event
// adds the mark to the waiting stream's frontier (an edge of the graph) and pulls a stream that
// was not capturing into the capture. Waits on events the capture did not record, and resets,
// become tasks that act on the event when the replay reaches them. A capture ends well only if
// every task is an ancestor of the origin stream's frontier: each joined stream has joined back.
//
// Errors thrown here name streams by their id (Stream::id); the callers check their arguments and
// name the streams their own way.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "canopy/engine/captured_graph.h"
#include "canopy/engine/task_recorder.h"

namespace canopy::engine {

class Capture;
class CaptureMember;
class Device;
class Event;
class GroupUpdate;
class MemoryRegistry;
class Stream;

// Memory a captured operation reads or writes at an address the program gave, within the runtime's
// allocation `serial` when it was captured. `role` names it in a message ("dst", "src").
struct MemorySpan {
    const void* address;
    std::uint64_t bytes;
    const char* role;
    std::uint64_t serial;
};

// A captured operation whose replays first check that each span still lies within the allocation
// it was captured in: the program may free memory after capturing work on it, and a replay would
// then write freed memory, or memory allocated since to someone else. A span that does not fails
// the replay with
// ACL_ERROR_RT_DEVICE_MEM_ERROR naming the operation, the role and the address. Spans the
// registry did not know at capture (pageable host memory) are the program's responsibility and
// not passed here.
Operation checked_at_replay(Operation operation, std::vector<MemorySpan> spans, const MemoryRegistry& memory);

// CANN's capture modes, in its order (aclmdlRICaptureMode): the mode says which other calls of
// the process the capture forbids (its callers' concern); GLOBAL and THREAD_LOCAL captures end on
// the thread that began them.
enum class CaptureMode { global = 0, per_thread = 1, relaxed = 2 };

// A conditional task's kind, in CANN's order (aclmdlRICondTaskType).
enum class ConditionKind { if_else = 0, while_loop = 1, switch_index = 2 };

// What a captured model says about one of its tasks (aclmdlRIDebugJsonPrint).
struct CapturedTaskInfo {
    int stream_id;
    OpKind kind;
    std::string name;
};

// A model that a capture fills: aclmdlRICaptureBegin's, or a branch of a conditional task.
struct CapturedModel {
    explicit CapturedModel(bool branch) : branch(branch) {}
    std::mutex mutex;  // guards the four below
    std::shared_ptr<Capture> capture;      // while its capture runs
    std::shared_ptr<CapturedGraph> graph;  // once its capture has ended well
    std::vector<CapturedTaskInfo> tasks_info;
    std::vector<std::vector<std::size_t>> tasks_after;
    const bool branch;  // a branch of a conditional task: runs only within its parent
};

// Tasks of one capturing stream that may be replaced between replays (a task group).
struct TaskGroup {
    std::weak_ptr<CapturedModel> model;
    std::vector<std::size_t> tasks;
    std::vector<OpKind> kinds;
    // The update in progress (CANN updates a group from one stream at a time). Owned here, not by
    // the stream, so that nothing is left behind by a stream destroyed mid-update: its destroy
    // drops the update (Stream::release_recorder).
    std::mutex mutex;  // guards the two below
    std::unique_ptr<GroupUpdate> update;
    Stream* updating = nullptr;
};

// A stream updating a task group: what is enqueued on it replaces the group's operations.
class GroupUpdate final : public TaskRecorder {
public:
    void record(Operation&& operation) override { operations.push_back(std::move(operation)); }
    // The stream's recorder if it is updating a task group.
    static GroupUpdate* of(const Stream& stream);
    // Starts updating `group` of `graph` on `stream` (which records nothing). Returns the stream
    // updating the group now instead, if there is one (nothing is done then).
    static Stream* begin(Stream& stream, const std::shared_ptr<TaskGroup>& group, std::shared_ptr<CapturedGraph> graph);
    // Ends the update on `stream` (its recorder): the stream runs its work again.
    static std::unique_ptr<GroupUpdate> end(Stream& stream);
    // Enqueues on `stream` the operation that swaps the update's operations in (same number and
    // kinds as the group's), so that updates take effect in the updating stream's order.
    static void apply(Stream& stream, std::unique_ptr<GroupUpdate> update);

    std::shared_ptr<TaskGroup> group;
    std::shared_ptr<CapturedGraph> graph;
    std::vector<Operation> operations;

private:
    void detach(Stream& stream) override;
};

namespace detail {
extern std::atomic<int> running_captures;
}  // namespace detail
// Whether any capture runs in the process: while none does, event work takes its usual path.
inline bool captures_running() { return detail::running_captures.load(std::memory_order_acquire) != 0; }

class Capture : public std::enable_shared_from_this<Capture> {
public:
    // Starts capturing `stream`, which must record nothing, into `model`.
    static std::shared_ptr<Capture> begin(Stream& stream, std::shared_ptr<CapturedModel> model, CaptureMode mode);
    // The capture `stream` records into (its own, or one it joined by waiting), if any.
    static Capture* of(const Stream& stream);
    // A capture running on a stream of `device`, if any.
    static std::shared_ptr<Capture> running_on(const Device& device);
    // Whether a capture in `mode` runs that the calling thread began (any thread: `own` false).
    static bool running_in_mode(CaptureMode mode, bool own);
    // Ends every capture running on `device`, which is going away (a reset, the runtime's
    // finalize): they are invalidated with `reason` and no longer run, so nothing of the process
    // (the synchronous calls a capture forbids, a new runtime) still sees them capturing.
    static void abandon(const Device& device, const std::string& reason);

    Capture(Stream& stream, std::shared_ptr<CapturedModel> model, CaptureMode mode);
    ~Capture();
    Capture(const Capture&) = delete;
    Capture& operator=(const Capture&) = delete;

    const CaptureMode mode;
    const std::thread::id thread;  // that began it
    Device& device() const { return device_; }
    const std::shared_ptr<CapturedModel>& model() const { return model_; }
    // The stream that began it (nullptr once its device's reset destroyed it).
    Stream* origin();
    // Why the capture can no longer end well (empty: it can).
    std::string invalidated();
    // The capture can no longer end well; the first reason stays. Later records fail with
    // ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED.
    void invalidate(const std::string& reason);

    // Ends the capture (once: its origin's thread ends it): if it is complete, compiles its tasks
    // into its model's graph. The streams leave it either way, and it no longer runs. Returns why
    // it was not complete ({0, ""} if it was).
    std::pair<int, std::string> end();

    // Task groups: opens one on `stream` (false if one is open already in this capture); closes
    // the one `stream` opened (nullptr if it opened none).
    bool open_group(const Stream& stream);
    std::shared_ptr<TaskGroup> close_group(const Stream& stream);
    // Appends a conditional task to `stream`: it reads *value when the replay reaches it and runs
    // a branch's graph within the replay (the branches are captured before this capture ends).
    void add_condition(const Stream& stream, std::vector<std::shared_ptr<CapturedModel>> branches,
                       const std::uint64_t* value, ConditionKind kind);
    // Stores `initial` at `value` before each replay.
    void preset(std::uint64_t* value, std::uint64_t initial);

private:
    friend class CaptureMember;
    friend bool capture_record(Stream&, Event&, bool);
    friend bool capture_wait(Stream&, Event&, bool, std::uint32_t);
    friend bool capture_reset(Stream&, Event&);

    // The capture holding a mark for `event`, if one is running.
    static std::shared_ptr<Capture> marking(const Event& event);
    void refuse_if_invalidated() const;
    void append(CaptureMember& member, GraphTask task, const char* name);
    std::pair<int, std::string> check_complete() const;
    void release();

    Device& device_;
    const std::shared_ptr<CapturedModel> model_;
    std::mutex mutex_;  // guards everything below
    std::string invalidated_;
    std::vector<GraphTask> tasks_;
    std::vector<CapturedTaskInfo> info_;
    std::vector<std::unique_ptr<CaptureMember>> members_;  // [0]: the origin stream
    // Per event recorded by the capture: the frontier of the recording stream at the record. The
    // events are kept alive until the capture ends, so that no new event takes a marked address.
    std::unordered_map<const Event*, std::vector<std::size_t>> marks_;
    std::vector<std::shared_ptr<Event>> marked_;
    std::vector<std::shared_ptr<Event>> external_records_;
    std::vector<const Event*> external_waits_;
    std::vector<std::pair<std::uint64_t*, std::uint64_t>> presets_;
    bool released_ = false;  // guarded by the registry's mutex: release() once, by end() or abandon()
    std::shared_ptr<TaskGroup> open_group_;
    CaptureMember* group_member_ = nullptr;
    std::vector<std::shared_ptr<CapturedModel>> branches_;  // of its conditional tasks
};

// Event records, waits and resets that a capture takes (true) instead of the stream: on a
// capturing stream, or, for a wait, on a stream that joins a capture by waiting for an event it
// recorded. An eager record (false) replaces the event's mark in the captures. A wait with a
// timeout (seconds) on an event recorded outside the capture is applied by the replay; a wait
// for an event the capture recorded is an edge between tasks of the same replay, with no timer.
bool capture_record(Stream& stream, Event& event, bool external);
bool capture_wait(Stream& stream, Event& event, bool external, std::uint32_t timeout_s);
bool capture_reset(Stream& stream, Event& event);

}  // namespace canopy::engine
