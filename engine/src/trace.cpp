// The timeline recorder and its writers (trace.h). Recording is on the threads that run the work:
// each appends fixed-size entries to its own chunked buffer, publishing each with one release
// store, so no lock is taken per operation and the writer can read while stragglers still append.
#include "canopy/engine/trace.h"

#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "canopy/engine/config.h"
#include "canopy/engine/device.h"
#include "canopy/engine/observer.h"
#include "canopy/engine/stream.h"

namespace canopy::engine::trace {

namespace {

using engine::OpKind;

// graph_task: a task of a captured graph, run by a replay (the replay itself is an operation).
enum class EntryType : std::uint8_t { operation, block, mark, range, graph_task };

// One slice or marker. Names are copied: a kernel's name may belong to a library unloaded before
// the trace is written, a marker's message to the caller's buffer.
struct Entry {
    EntryType type;
    OpKind kind;
    bool aic;
    std::int32_t device;  // -1: a marker of a thread, not of a stream
    std::int32_t stream;
    std::uint32_t thread;  // the recording thread's number (its worker track)
    std::uint32_t block, blocks, core;
    std::uint64_t task, flow, bytes;
    std::int64_t begin, end;
    std::int64_t graph_task;        // graph_task: its index in the graph
    std::int32_t captured_stream;   // graph_task: the stream it was captured on
    char name[80];
    char category[24];
};

void copy_name(char* to, std::size_t size, const char* from) {
    if (!from) {
        to[0] = '\0';
        return;
    }
    std::size_t n = std::strlen(from);
    if (n >= size) n = size - 1;
    std::memcpy(to, from, n);
    to[n] = '\0';
}

struct Chunk {
    static constexpr std::size_t capacity = 256;
    Entry entries[capacity];
    std::atomic<std::size_t> count{0};  // entries published (written by the owner only)
    std::atomic<Chunk*> next{nullptr};
};

struct ThreadBuffer {
    explicit ThreadBuffer(std::uint32_t number) : number(number), os_tid(static_cast<long>(::syscall(SYS_gettid))) {}
    ~ThreadBuffer() {
        for (Chunk* chunk = head; chunk;) {
            Chunk* next = chunk->next.load(std::memory_order_relaxed);
            delete chunk;
            chunk = next;
        }
    }
    const std::uint32_t number;
    const long os_tid;
    Chunk* head = new Chunk;
    Chunk* tail = head;  // the owner's only

    // Owner thread only. The entry is filled in place, then published.
    Entry* claim() {
        std::size_t n = tail->count.load(std::memory_order_relaxed);
        if (n == Chunk::capacity) {
            Chunk* fresh = new Chunk;
            tail->next.store(fresh, std::memory_order_release);
            tail = fresh;
            n = 0;
        }
        return &tail->entries[n];
    }
    void publish() { tail->count.fetch_add(1, std::memory_order_release); }
};

struct Session;
// The calling thread's buffer in the session numbered `session` (sessions are never renumbered,
// so a stale cache simply misses).
struct LocalCache {
    std::uint64_t session = 0;
    ThreadBuffer* buffer = nullptr;
};
thread_local LocalCache local_cache;

std::atomic<std::uint64_t> session_numbers{0};

struct Session final : engine::Observer {
    Session(std::string path, Owner owner)
        : number(session_numbers.fetch_add(1) + 1), path(std::move(path)), owner(owner), origin(engine::now_ns()) {}

    const std::uint64_t number;
    const std::string path;
    const Owner owner;
    const std::int64_t origin;
    std::mutex mutex;  // guards buffers (taken once per thread and session)
    std::vector<std::unique_ptr<ThreadBuffer>> buffers;

    ThreadBuffer& local() {
        LocalCache& cache = local_cache;
        if (cache.session == number) return *cache.buffer;
        std::lock_guard lock(mutex);
        buffers.push_back(std::make_unique<ThreadBuffer>(static_cast<std::uint32_t>(buffers.size() + 1)));
        cache = {number, buffers.back().get()};
        return *cache.buffer;
    }

    void on_operation(const engine::OpRecord& record) override {
        try {
            ThreadBuffer& buffer = local();
            Entry& entry = *buffer.claim();
            entry.type = record.graph_task >= 0 ? EntryType::graph_task : EntryType::operation;
            entry.graph_task = record.graph_task;
            entry.captured_stream = record.captured_stream_id;
            entry.kind = record.kind;
            entry.aic = false;
            entry.device = record.device_id;
            entry.stream = record.stream_id;
            entry.thread = buffer.number;
            entry.block = entry.core = 0;
            entry.blocks = record.kind == OpKind::kernel ? static_cast<std::uint32_t>(record.bytes) : 0;
            entry.task = record.task;
            entry.flow = record.flow;
            entry.bytes = record.kind == OpKind::kernel ? 0 : record.bytes;
            entry.begin = record.begin_ns;
            entry.end = record.end_ns;
            copy_name(entry.name, sizeof entry.name, record.name);
            entry.category[0] = '\0';
            buffer.publish();
        } catch (const std::bad_alloc&) {
            // Out of memory for the trace: the entry is lost, the program goes on.
        }
    }

    void on_block(const engine::BlockRecord& record) override {
        try {
            ThreadBuffer& buffer = local();
            Entry& entry = *buffer.claim();
            entry.type = EntryType::block;
            entry.graph_task = -1;
            entry.captured_stream = -1;
            entry.kind = OpKind::kernel;
            entry.aic = record.aic;
            entry.device = record.device_id;
            entry.stream = record.stream_id;
            entry.thread = buffer.number;
            entry.block = record.block;
            entry.blocks = record.blocks;
            entry.core = record.core;
            entry.task = record.task;
            entry.flow = entry.bytes = 0;
            entry.begin = record.begin_ns;
            entry.end = record.end_ns;
            copy_name(entry.name, sizeof entry.name, record.kernel);
            entry.category[0] = '\0';
            buffer.publish();
        } catch (const std::bad_alloc&) {
        }
    }

    void marker(EntryType type, const char* category, const char* message, int device, int stream,
                std::uint32_t thread, std::int64_t begin, std::int64_t end) {
        ThreadBuffer& buffer = local();
        Entry& entry = *buffer.claim();
        entry.type = type;
        entry.graph_task = -1;
        entry.captured_stream = -1;
        entry.kind = OpKind::host_func;
        entry.aic = false;
        entry.device = device;
        entry.stream = stream;
        entry.thread = thread == 0 ? buffer.number : thread;
        entry.block = entry.blocks = entry.core = 0;
        entry.task = entry.flow = entry.bytes = 0;
        entry.begin = begin;
        entry.end = end;
        copy_name(entry.name, sizeof entry.name, message);
        copy_name(entry.category, sizeof entry.category, category);
        buffer.publish();
    }

    struct Snapshot {
        std::vector<Entry> entries;
        std::map<std::uint32_t, long> threads;  // number -> OS thread id
    };
    Snapshot snapshot() {
        Snapshot result;
        std::lock_guard lock(mutex);
        for (const auto& buffer : buffers) {
            result.threads[buffer->number] = buffer->os_tid;
            for (Chunk* chunk = buffer->head; chunk; chunk = chunk->next.load(std::memory_order_acquire)) {
                const std::size_t n = chunk->count.load(std::memory_order_acquire);
                result.entries.insert(result.entries.end(), chunk->entries, chunk->entries + n);
            }
        }
        std::stable_sort(result.entries.begin(), result.entries.end(),
                         [](const Entry& a, const Entry& b) { return a.begin < b.begin; });
        return result;
    }
};

// ---- Writers

std::string escaped(const char* text) {
    std::string out;
    for (const unsigned char* c = reinterpret_cast<const unsigned char*>(text); *c; ++c) {
        switch (*c) {
            case '"': out += "\\\""; break;
            case '\\': out += "\\\\"; break;
            case '\n': out += "\\n"; break;
            case '\t': out += "\\t"; break;
            default:
                if (*c < 0x20) {
                    char code[8];
                    std::snprintf(code, sizeof code, "\\u%04x", *c);
                    out += code;
                } else {
                    out += static_cast<char>(*c);
                }
        }
    }
    return out;
}

// Microseconds since the trace's origin, to the nanosecond.
std::string micros(std::int64_t ns) {
    char text[40];
    std::snprintf(text, sizeof text, "%.3f", static_cast<double>(ns) / 1000.0);
    return text;
}

// msprof's task types, for the operations a CPU runs.
const char* task_type(const Entry& op, const std::map<std::tuple<int, int, std::uint64_t>, std::pair<bool, bool>>& cores) {
    switch (op.kind) {
        case OpKind::kernel: {
            const auto found = cores.find({op.device, op.stream, op.task});
            if (found == cores.end()) return "AI_CORE";
            const auto [aic, aiv] = found->second;
            return aic && aiv ? "MIX_AIC" : aic ? "AI_CORE" : "AI_VECTOR_CORE";
        }
        case OpKind::memcpy: return "MEMCPY_ASYNC";
        case OpKind::memset: return "MEMSET_ASYNC";
        case OpKind::event_record: return "EVENT_RECORD";
        case OpKind::event_wait: return "EVENT_WAIT";
        case OpKind::event_reset: return "EVENT_RESET";
        case OpKind::host_func: return "HOST_FUNC";
        case OpKind::callback: return "CALLBACK";
        case OpKind::signal: return "NOTIFY_RECORD";
        case OpKind::signal_wait: return "NOTIFY_WAIT";
    }
    return "UNKNOWN";
}

// The operation's type in the profile: the kernel's name, "memcpy H2D" and so on per copy
// direction, else the kind.
std::string op_type(const Entry& op) {
    if (op.kind == OpKind::kernel) return op.name[0] ? op.name : "kernel";
    if (op.kind == OpKind::memcpy && op.name[0]) return std::string("memcpy ") + op.name;
    return engine::to_string(op.kind);
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string out = "\"";
    for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

constexpr int threads_pid = 1000;            // the process holding the threads' tracks
constexpr int marker_tid_offset = 1000000;   // a stream's marker track beside its operations
// The tasks its replays ran, per stream the graph captured, beside the executing stream's track.
constexpr int replay_tid_offset = 2000000;
int replay_tid(const Entry& e) { return replay_tid_offset + e.stream * 1000 + e.captured_stream; }

std::string file_stem(const std::string& path) {
    std::string name = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0) name.resize(name.size() - 5);
    if (name.rfind("msprof_", 0) == 0 && name.size() > 7) name = name.substr(7);
    return name;
}

std::string directory_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

std::string write_files(Session& session) {
    const Session::Snapshot snapshot = session.snapshot();
    const std::vector<Entry>& entries = snapshot.entries;
    const std::int64_t origin = session.origin;
    auto ts = [origin](std::int64_t ns) { return micros(std::max<std::int64_t>(0, ns - origin)); };

    // Which core kinds each launch's blocks ran on, for the kernels' task type.
    std::map<std::tuple<int, int, std::uint64_t>, std::pair<bool, bool>> cores;
    for (const Entry& e : entries) {
        if (e.type != EntryType::block) continue;
        auto& kinds = cores[{e.device, e.stream, e.task}];
        (e.aic ? kinds.first : kinds.second) = true;
    }

    std::ostringstream json;
    json << "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"canopy\"},\"traceEvents\":[\n";
    bool first = true;
    auto event = [&](const std::string& body) {
        if (!first) json << ",\n";
        first = false;
        json << '{' << body << '}';
    };
    // Tracks: a process per device, a thread per stream (and one for its markers), a process for
    // the threads (kernel blocks on the workers, markers of host threads).
    std::set<int> devices;
    std::set<std::pair<int, int>> streams, marker_streams;
    std::set<std::tuple<int, int, int>> replay_tracks;  // device, executing stream, captured stream
    std::set<std::uint32_t> threads;
    for (const Entry& e : entries) {
        if (e.type == EntryType::operation) {
            devices.insert(e.device);
            streams.insert({e.device, e.stream});
        } else if (e.type == EntryType::graph_task) {
            devices.insert(e.device);
            replay_tracks.insert({e.device, e.stream, e.captured_stream});
        } else if (e.type == EntryType::block || e.device < 0) {
            threads.insert(e.thread);
        } else {
            devices.insert(e.device);
            marker_streams.insert({e.device, e.stream});
        }
    }
    for (int device : devices) {
        event("\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + std::to_string(device) +
              ",\"args\":{\"name\":\"device " + std::to_string(device) + "\"}");
        event("\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":" + std::to_string(device) +
              ",\"args\":{\"sort_index\":" + std::to_string(device) + "}");
    }
    for (const auto& [device, stream] : streams) {
        event("\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + std::to_string(device) + ",\"tid\":" +
              std::to_string(stream) + ",\"args\":{\"name\":\"stream " + std::to_string(stream) + "\"}");
        event("\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":" + std::to_string(device) + ",\"tid\":" +
              std::to_string(stream) + ",\"args\":{\"sort_index\":" + std::to_string(2 * stream) + "}");
    }
    for (const auto& [device, stream] : marker_streams) {
        const std::string tid = std::to_string(marker_tid_offset + stream);
        event("\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + std::to_string(device) + ",\"tid\":" + tid +
              ",\"args\":{\"name\":\"stream " + std::to_string(stream) + " markers\"}");
        event("\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":" + std::to_string(device) + ",\"tid\":" + tid +
              ",\"args\":{\"sort_index\":" + std::to_string(2 * stream + 1) + "}");
    }
    for (const auto& [device, stream, captured] : replay_tracks) {
        Entry key{};
        key.stream = stream;
        key.captured_stream = captured;
        const std::string tid = std::to_string(replay_tid(key));
        event("\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + std::to_string(device) + ",\"tid\":" + tid +
              ",\"args\":{\"name\":\"stream " + std::to_string(stream) + " replays: captured stream " +
              std::to_string(captured) + "\"}");
        event("\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":" + std::to_string(device) + ",\"tid\":" + tid +
              ",\"args\":{\"sort_index\":" + std::to_string(2 * stream + 1) + "}");
    }
    if (!threads.empty()) {
        event("\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + std::to_string(threads_pid) +
              ",\"args\":{\"name\":\"threads (kernel blocks, host markers)\"}");
        event("\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":" + std::to_string(threads_pid) +
              ",\"args\":{\"sort_index\":" + std::to_string(threads_pid) + "}");
    }
    for (std::uint32_t thread : threads) {
        const auto os = snapshot.threads.find(thread);
        event("\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + std::to_string(threads_pid) + ",\"tid\":" +
              std::to_string(thread) + ",\"args\":{\"name\":\"thread " + std::to_string(thread) + " (tid " +
              std::to_string(os == snapshot.threads.end() ? 0 : os->second) + ")\"}");
    }

    // The most recent record entry of each flow id, for the waits' arrows.
    std::unordered_map<std::uint64_t, const Entry*> records;
    // The operations that ran replays' tasks, for the arrows to those tasks.
    std::map<std::tuple<int, int, std::uint64_t>, const Entry*> replays;
    for (const Entry& e : entries)
        if (e.type == EntryType::operation && e.kind == OpKind::kernel && std::strcmp(e.name, "model") == 0)
            replays[{e.device, e.stream, e.task}] = &e;
    std::uint64_t next_flow = 1;
    for (const Entry& e : entries) {
        const std::string where_stream =
            "\"pid\":" + std::to_string(e.device) + ",\"tid\":" + std::to_string(e.stream);
        switch (e.type) {
            case EntryType::operation: {
                const std::string type = op_type(e);
                std::string args = "\"kind\":\"" + std::string(engine::to_string(e.kind)) +
                                   "\",\"op_type\":\"" + escaped(type.c_str()) + "\",\"task\":" + std::to_string(e.task);
                if (e.kind == OpKind::kernel) args += ",\"blocks\":" + std::to_string(e.blocks);
                else args += ",\"bytes\":" + std::to_string(e.bytes);
                event("\"name\":\"" + escaped(type.c_str()) + "\",\"cat\":\"" + engine::to_string(e.kind) +
                      "\",\"ph\":\"X\"," + where_stream + ",\"ts\":" + ts(e.begin) + ",\"dur\":" +
                      micros(std::max<std::int64_t>(0, e.end - e.begin)) + ",\"args\":{" + args + "}");
                if (e.kind == OpKind::event_record && e.flow != 0) records[e.flow] = &e;
                if (e.kind == OpKind::event_wait && e.flow != 0) {
                    const auto found = records.find(e.flow);
                    if (found != records.end()) {
                        const Entry& record = *found->second;
                        const std::string id = std::to_string(next_flow++);
                        event("\"name\":\"event\",\"cat\":\"event\",\"ph\":\"s\",\"id\":" + id + ",\"pid\":" +
                              std::to_string(record.device) + ",\"tid\":" + std::to_string(record.stream) +
                              ",\"ts\":" + ts(record.begin));
                        event("\"name\":\"event\",\"cat\":\"event\",\"ph\":\"f\",\"bp\":\"e\",\"id\":" + id + "," +
                              where_stream + ",\"ts\":" + ts(e.begin));
                    }
                }
                break;
            }
            case EntryType::graph_task: {
                // On its captured stream's replay track, linked to the replay that ran it by its
                // task id and by a flow arrow from the replay's slice.
                const std::string type = op_type(e);
                const std::string where = "\"pid\":" + std::to_string(e.device) + ",\"tid\":" + std::to_string(replay_tid(e));
                event("\"name\":\"" + escaped(type.c_str()) + "\",\"cat\":\"replay\",\"ph\":\"X\"," + where +
                      ",\"ts\":" + ts(e.begin) + ",\"dur\":" + micros(std::max<std::int64_t>(0, e.end - e.begin)) +
                      ",\"args\":{\"kind\":\"" + engine::to_string(e.kind) + "\",\"graph_task\":" +
                      std::to_string(e.graph_task) + ",\"captured_stream\":" + std::to_string(e.captured_stream) +
                      ",\"replay_stream\":" + std::to_string(e.stream) + ",\"replay_task\":" + std::to_string(e.task) +
                      "}");
                const auto replay = replays.find({e.device, e.stream, e.task});
                if (replay != replays.end()) {
                    const std::string id = std::to_string(next_flow++);
                    event("\"name\":\"replay\",\"cat\":\"replay\",\"ph\":\"s\",\"id\":" + id + "," + where_stream +
                          ",\"ts\":" + ts(replay->second->begin));
                    event("\"name\":\"replay\",\"cat\":\"replay\",\"ph\":\"f\",\"bp\":\"e\",\"id\":" + id + "," + where +
                          ",\"ts\":" + ts(e.begin));
                }
                break;
            }
            case EntryType::block:
                event("\"name\":\"" + escaped(e.name) + "\",\"cat\":\"block\",\"ph\":\"X\",\"pid\":" +
                      std::to_string(threads_pid) + ",\"tid\":" + std::to_string(e.thread) + ",\"ts\":" + ts(e.begin) +
                      ",\"dur\":" + micros(std::max<std::int64_t>(0, e.end - e.begin)) + ",\"args\":{\"block\":" +
                      std::to_string(e.block) + ",\"blocks\":" + std::to_string(e.blocks) + ",\"core\":\"" +
                      (e.aic ? "AIC" : "AIV") + "\",\"slot\":" + std::to_string(e.core) + ",\"device\":" +
                      std::to_string(e.device) + ",\"stream\":" + std::to_string(e.stream) + ",\"task\":" +
                      std::to_string(e.task) + "}");
                break;
            case EntryType::mark:
            case EntryType::range: {
                const std::string where =
                    e.device < 0 ? "\"pid\":" + std::to_string(threads_pid) + ",\"tid\":" + std::to_string(e.thread)
                                 : "\"pid\":" + std::to_string(e.device) + ",\"tid\":" +
                                       std::to_string(marker_tid_offset + e.stream);
                const std::string head = "\"name\":\"" + escaped(e.name) + "\",\"cat\":\"" + escaped(e.category) + "\",";
                if (e.type == EntryType::mark) {
                    event(head + "\"ph\":\"i\",\"s\":\"t\"," + where + ",\"ts\":" + ts(e.begin));
                } else {
                    event(head + "\"ph\":\"X\"," + where + ",\"ts\":" + ts(e.begin) + ",\"dur\":" +
                          micros(std::max<std::int64_t>(0, e.end - e.begin)));
                }
                break;
            }
        }
    }
    json << "\n]}\n";

    std::ofstream trace_file(session.path);
    trace_file << json.str();
    trace_file.close();
    if (!trace_file) return session.path + ": cannot write the trace";

    // op_summary: one row per operation, in the order they started.
    const std::string directory = directory_of(session.path), stem = file_stem(session.path);
    std::ofstream summary(directory + "op_summary_" + stem + ".csv");
    summary << "Device_id,Stream ID,Task ID,Op Name,OP Type,Task Type,Task Start Time(us),Task Duration(us),"
               "Task Wait Time(us),Block Dim,Size(B)\n";
    struct Statistic {
        std::string core_type;
        std::uint64_t count = 0;
        std::int64_t total = 0, min = 0, max = 0;
    };
    std::map<std::pair<int, std::string>, Statistic> statistics;
    std::map<int, std::int64_t> device_totals;
    std::map<std::pair<int, int>, std::int64_t> previous_end;
    for (const Entry& e : entries) {
        if (e.type != EntryType::operation) continue;
        const std::string type = op_type(e);
        const char* task = task_type(e, cores);
        const std::int64_t duration = std::max<std::int64_t>(0, e.end - e.begin);
        const auto previous = previous_end.find({e.device, e.stream});
        const std::int64_t wait = previous == previous_end.end() ? 0 : std::max<std::int64_t>(0, e.begin - previous->second);
        previous_end[{e.device, e.stream}] = e.end;
        summary << e.device << ',' << e.stream << ',' << e.task << ',' << csv_field(type) << ',' << csv_field(type)
                << ',' << task << ',' << ts(e.begin) << ',' << micros(duration) << ',' << micros(wait) << ','
                << (e.kind == OpKind::kernel ? e.blocks : 0) << ',' << e.bytes << '\n';
        Statistic& s = statistics[{e.device, type}];
        if (s.count == 0) {
            s.core_type = task;
            s.min = s.max = duration;
        }
        ++s.count;
        s.total += duration;
        s.min = std::min(s.min, duration);
        s.max = std::max(s.max, duration);
        device_totals[e.device] += duration;
    }
    summary.close();
    if (!summary) return directory + "op_summary_" + stem + ".csv: cannot write the file";

    // op_statistic: per device and operation type, the longest total first.
    std::vector<std::pair<std::pair<int, std::string>, Statistic>> rows(statistics.begin(), statistics.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
        return a.first.first != b.first.first ? a.first.first < b.first.first : a.second.total > b.second.total;
    });
    std::ofstream statistic(directory + "op_statistic_" + stem + ".csv");
    statistic << "Device_id,OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)\n";
    for (const auto& [key, s] : rows) {
        const double total = static_cast<double>(device_totals[key.first]);
        char ratio[32];
        std::snprintf(ratio, sizeof ratio, "%.2f", total > 0 ? 100.0 * static_cast<double>(s.total) / total : 0.0);
        statistic << key.first << ',' << csv_field(key.second) << ',' << s.core_type << ',' << s.count << ','
                  << micros(s.total) << ',' << micros(s.min) << ','
                  << micros(s.total / static_cast<std::int64_t>(s.count)) << ',' << micros(s.max) << ',' << ratio
                  << '\n';
    }
    statistic.close();
    if (!statistic) return directory + "op_statistic_" + stem + ".csv: cannot write the file";
    return {};
}

// ---- The current session

// Never destroyed: an operation still running when the process exits may append to a session
// after the exit handler has written it.
std::mutex& control_mutex = *new std::mutex;  // start / stop / markers' session lookups
std::shared_ptr<Session>& current = *new std::shared_ptr<Session>;  // guarded by control_mutex
// Stopped sessions are kept: stragglers that loaded the observer before the stop may still append.
std::vector<std::shared_ptr<Session>>& retired = *new std::vector<std::shared_ptr<Session>>;

struct OpenRange {
    std::string category, message;
    int device, stream;
    std::uint32_t thread;  // the starting thread's number in the session that was current, or 0
    std::uint64_t session;
    std::int64_t begin;
};
std::mutex range_mutex;
std::unordered_map<std::uint64_t, OpenRange> open_ranges;  // guarded by range_mutex
std::atomic<std::uint64_t> range_ids{0};

void write_at_exit() {
    // The program never reached aclFinalize (or aclprofStop): what was recorded is still written.
    (void)stop(Owner::runtime);
    (void)stop(Owner::profiler);
}

std::shared_ptr<Session> current_session() {
    std::lock_guard lock(control_mutex);
    return current;
}

void where(const engine::Stream* stream, int& device, int& id) {
    if (stream) {
        device = stream->device().id();
        id = stream->id();
    } else {
        device = -1;
        id = -1;
    }
}

}  // namespace

bool start(const std::string& path, Owner owner) {
    std::lock_guard lock(control_mutex);
    if (current) return false;
    static const bool registered = std::atexit(write_at_exit) == 0;
    (void)registered;
    // Sessions retired before this start have long finished their operations.
    retired.clear();
    current = std::make_shared<Session>(path, owner);
    engine::set_observer(current.get());
    return true;
}

std::string stop(Owner owner) {
    std::shared_ptr<Session> session;
    {
        std::lock_guard lock(control_mutex);
        if (!current || current->owner != owner) return {};
        session = std::move(current);
        current.reset();
        engine::set_observer(nullptr);
        retired.push_back(session);
    }
    return write_files(*session);
}

bool active() { return current_session() != nullptr; }

bool active(Owner owner) {
    const auto session = current_session();
    return session && session->owner == owner;
}

void runtime_started(const engine::RuntimeConfig& config) {
    std::string path = config.trace;
    if (path.empty()) {
        const char* from_environment = std::getenv("CANOPY_TRACE");
        if (from_environment) path = from_environment;
    }
    if (!path.empty()) start(path, Owner::runtime);
}

void runtime_finalized() {
    // A profiler trace ends with the runtime too: the next runtime numbers its streams afresh.
    for (Owner owner : {Owner::runtime, Owner::profiler}) {
        const std::string error = stop(owner);
        if (!error.empty()) std::fprintf(stderr, "canopy: trace: %s\n", error.c_str());
    }
}

void mark(const char* category, const char* message, const engine::Stream* stream) {
    const auto session = current_session();
    if (!session) return;
    int device, id;
    where(stream, device, id);
    const std::int64_t now = engine::now_ns();
    try {
        session->marker(EntryType::mark, category, message, device, id, 0, now, now);
    } catch (const std::bad_alloc&) {
    }
}

std::uint64_t range_start(const char* category, const char* message, const engine::Stream* stream) {
    const auto session = current_session();
    OpenRange range{category ? category : "", message ? message : "", -1, -1, 0, 0, engine::now_ns()};
    where(stream, range.device, range.stream);
    if (session) {
        range.thread = session->local().number;
        range.session = session->number;
    }
    const std::uint64_t id = range_ids.fetch_add(1) + 1;
    std::lock_guard lock(range_mutex);
    open_ranges.emplace(id, std::move(range));
    return id;
}

bool range_end(std::uint64_t id) {
    OpenRange range;
    {
        std::lock_guard lock(range_mutex);
        const auto found = open_ranges.find(id);
        if (found == open_ranges.end()) return false;
        range = std::move(found->second);
        open_ranges.erase(found);
    }
    const auto session = current_session();
    if (!session) return true;
    // A range of a thread stays on the starting thread's track; one started before this session
    // goes to the ending thread's.
    const std::uint32_t thread = range.session == session->number ? range.thread : 0;
    try {
        session->marker(EntryType::range, range.category.c_str(), range.message.c_str(), range.device, range.stream,
                        thread, range.begin, engine::now_ns());
    } catch (const std::bad_alloc&) {
    }
    return true;
}

std::string msprof_path(const std::string& directory) {
    const auto now = std::chrono::system_clock::now();
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    const auto millis =
        std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000;
    std::tm local{};
    localtime_r(&seconds, &local);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d%H%M%S", &local);
    std::string base = directory + "/msprof_" + stamp + std::to_string(1000 + millis).substr(1);
    std::string path = base + ".json";
    for (int n = 1; ::access(path.c_str(), F_OK) == 0; ++n) path = base + "_" + std::to_string(n) + ".json";
    return path;
}

}  // namespace canopy::engine::trace
