// The timeline (api/src/trace.cpp): a two-stream program with an event edge, traced through the
// aclInit "trace" option and through CANOPY_TRACE, written at aclFinalize as Chrome trace JSON with
// a track per stream, the flow pair of the edge and the kernel's blocks on worker tracks, and the
// msprof-shaped op_summary / op_statistic CSVs beside it.
#include <sys/stat.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <future>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mstx/ms_tools_ext.h"
#include "runtime_kernels.h"
#include "support.h"

using namespace canopy_test;
using nlohmann::json;

namespace {

// A fresh directory, removed with what the test wrote into it when the test ends.
json read_json(const std::string& path) {
    std::ifstream file(path);
    REQUIRE_MESSAGE(file, path << " was not written");
    return json::parse(file);  // throws, failing the test, if it is not JSON
}

std::vector<std::vector<std::string>> read_csv(const std::string& path) {
    std::ifstream file(path);
    REQUIRE_MESSAGE(file, path << " was not written");
    std::vector<std::vector<std::string>> rows;
    for (std::string line; std::getline(file, line);) {
        std::vector<std::string> fields;
        std::stringstream in(line);
        for (std::string field; std::getline(in, field, ',');) fields.push_back(field);
        rows.push_back(fields);
    }
    return rows;
}

int32_t stream_id(aclrtStream stream) {
    int32_t id = -1;
    CHECK_ACL(aclrtStreamGetId(stream, &id));
    return id;
}

void nothing(void*) {}

struct TwoStreamRun {
    int32_t a = -1, b = -1;
};

// Stream A: H2D copy, a 4-block kernel, an event record. Stream B: waits for the event, D2H copy,
// a host function. Then aclFinalize writes the trace.
TwoStreamRun run_two_streams(const char* config_path) {
    TwoStreamRun ids;
    REQUIRE_ACL(aclInit(config_path));
    REQUIRE_ACL(aclrtSetDevice(0));
    aclrtStream a = nullptr, b = nullptr;
    aclrtEvent done = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&a));
    REQUIRE_ACL(aclrtCreateStream(&b));
    REQUIRE_ACL(aclrtCreateEvent(&done));
    ids.a = stream_id(a);
    ids.b = stream_id(b);
    constexpr size_t bytes = 4 * sizeof(float);
    float *host = nullptr, *in = nullptr, *out = nullptr;
    REQUIRE_ACL(aclrtMallocHost(reinterpret_cast<void**>(&host), bytes));
    REQUIRE_ACL(aclrtMalloc(reinterpret_cast<void**>(&in), bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    REQUIRE_ACL(aclrtMalloc(reinterpret_cast<void**>(&out), bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    for (int i = 0; i < 4; ++i) host[i] = float(i);
    REQUIRE_ACL(aclrtMemcpyAsync(in, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE, a));
    REQUIRE_ACL(launch_square_scale(4, a, in, out, 2.0f));
    REQUIRE_ACL(aclrtRecordEvent(done, a));
    REQUIRE_ACL(aclrtStreamWaitEvent(b, done));
    REQUIRE_ACL(aclrtMemcpyAsync(host, bytes, out, bytes, ACL_MEMCPY_DEVICE_TO_HOST, b));
    REQUIRE_ACL(aclrtLaunchHostFunc(b, nothing, nullptr));
    REQUIRE_ACL(aclrtSynchronizeStream(b));
    CHECK(host[3] == 12.0f);
    CHECK_ACL(aclrtSynchronizeStream(a));
    CHECK_ACL(aclrtFree(in));
    CHECK_ACL(aclrtFree(out));
    CHECK_ACL(aclrtFreeHost(host));
    CHECK_ACL(aclrtDestroyEvent(done));
    CHECK_ACL(aclrtDestroyStream(a));
    CHECK_ACL(aclrtDestroyStream(b));
    REQUIRE_ACL(aclrtResetDevice(0));
    REQUIRE_ACL(aclFinalize());
    return ids;
}

// The X events of the operations on device 0, by stream id, in order of their start.
std::map<int, std::vector<json>> operations_by_stream(const json& trace) {
    std::map<int, std::vector<json>> by_stream;
    for (const json& e : trace.at("traceEvents")) {
        if (e.at("ph") == "X" && e.at("pid") == 0) by_stream[e.at("tid").get<int>()].push_back(e);
    }
    return by_stream;
}

std::vector<std::string> names(const std::vector<json>& events) {
    std::vector<std::string> result;
    for (const json& e : events) result.push_back(e.at("name").get<std::string>());
    return result;
}

void check_two_stream_trace(const std::string& directory, const std::string& stem, const TwoStreamRun& ids) {
    const json trace = read_json(directory + "/" + stem + ".json");
    REQUIRE(trace.at("traceEvents").is_array());

    // A track per stream, named.
    std::map<int, std::string> thread_names;
    std::set<int> processes;
    for (const json& e : trace.at("traceEvents")) {
        if (e.at("ph") == "M" && e.at("name") == "thread_name" && e.at("pid") == 0)
            thread_names[e.at("tid").get<int>()] = e.at("args").at("name").get<std::string>();
        if (e.at("ph") == "M" && e.at("name") == "process_name") processes.insert(e.at("pid").get<int>());
    }
    CHECK(thread_names[ids.a] == "stream " + std::to_string(ids.a));
    CHECK(thread_names[ids.b] == "stream " + std::to_string(ids.b));
    CHECK(processes.count(0) == 1);

    // The operations of each stream, in stream order.
    auto by_stream = operations_by_stream(trace);
    CHECK(names(by_stream[ids.a]) == std::vector<std::string>{"memcpy H2D", "square_scale", "event record"});
    CHECK(names(by_stream[ids.b]) == std::vector<std::string>{"event wait", "memcpy D2H", "host function"});
    const json& kernel = by_stream[ids.a].at(1);
    CHECK(kernel.at("args").at("blocks") == 4);
    CHECK(kernel.at("args").at("kind") == "kernel");
    CHECK(by_stream[ids.a].at(0).at("args").at("bytes") == 16);
    for (const auto& [stream, events] : by_stream) {
        for (std::size_t i = 1; i < events.size(); ++i)
            CHECK(events[i].at("ts").get<double>() >= events[i - 1].at("ts").get<double>() +
                                                           events[i - 1].at("dur").get<double>() - 0.002);
    }

    // The event edge: a flow from stream A's record to stream B's wait.
    std::map<long long, json> starts, finishes;
    for (const json& e : trace.at("traceEvents")) {
        if (e.at("ph") == "s") starts[e.at("id").get<long long>()] = e;
        if (e.at("ph") == "f") finishes[e.at("id").get<long long>()] = e;
    }
    REQUIRE(starts.size() == 1);
    REQUIRE(finishes.size() == 1);
    const json& start = starts.begin()->second;
    const json& finish = finishes.begin()->second;
    CHECK(start.at("id") == finish.at("id"));
    CHECK(start.at("tid") == ids.a);
    CHECK(finish.at("tid") == ids.b);
    CHECK(finish.at("bp") == "e");
    CHECK(finish.at("ts").get<double>() >= start.at("ts").get<double>());

    // The kernel's blocks, on the threads that ran them.
    std::set<int> blocks;
    for (const json& e : trace.at("traceEvents")) {
        if (e.at("ph") == "X" && e.at("cat") == "block") {
            CHECK(e.at("name") == "square_scale");
            CHECK(e.at("pid") != 0);
            CHECK(e.at("args").at("stream") == ids.a);
            blocks.insert(e.at("args").at("block").get<int>());
        }
    }
    CHECK(blocks == std::set<int>{0, 1, 2, 3});

    // op_summary: msprof's header, a row per operation.
    const auto summary = read_csv(directory + "/op_summary_" + stem + ".csv");
    REQUIRE(summary.size() == 7);
    CHECK(summary[0] == std::vector<std::string>{"Device_id", "Stream ID", "Task ID", "Op Name", "OP Type", "Task Type",
                                                 "Task Start Time(us)", "Task Duration(us)", "Task Wait Time(us)",
                                                 "Block Dim", "Size(B)"});
    std::map<std::string, std::vector<std::string>> rows;
    for (std::size_t i = 1; i < summary.size(); ++i) rows[summary[i][3]] = summary[i];
    CHECK(rows["square_scale"][5] == "AI_VECTOR_CORE");
    CHECK(rows["square_scale"][9] == "4");
    CHECK(rows["memcpy H2D"][5] == "MEMCPY_ASYNC");
    CHECK(rows["memcpy H2D"][10] == "16");
    CHECK(rows["event wait"][1] == std::to_string(ids.b));

    // op_statistic: per type, counts and a share summing to 100.
    const auto statistic = read_csv(directory + "/op_statistic_" + stem + ".csv");
    REQUIRE(statistic.size() == 7);
    CHECK(statistic[0] == std::vector<std::string>{"Device_id", "OP Type", "Core Type", "Count", "Total Time(us)",
                                                   "Min Time(us)", "Avg Time(us)", "Max Time(us)", "Ratio(%)"});
    double share = 0;
    for (std::size_t i = 1; i < statistic.size(); ++i) {
        CHECK(statistic[i][3] == "1");
        CHECK(std::stod(statistic[i][5]) <= std::stod(statistic[i][6]));
        CHECK(std::stod(statistic[i][6]) <= std::stod(statistic[i][7]));
        share += std::stod(statistic[i][8]);
    }
    CHECK(share == doctest::Approx(100).epsilon(0.01));
}

}  // namespace

TEST_CASE("the aclInit \"trace\" option writes the timeline and the profile at aclFinalize") {
    const TemporaryDirectory temporary;
    const std::string& directory = temporary.path();
    const ConfigFile config("{\"canopy\": {\"trace\": \"" + directory + "/run.json\"}}");
    const TwoStreamRun ids = run_two_streams(config.path());
    check_two_stream_trace(directory, "run", ids);
}

TEST_CASE("CANOPY_TRACE traces a program that does not ask for it") {
    const TemporaryDirectory temporary;
    const std::string& directory = temporary.path();
    REQUIRE(::setenv("CANOPY_TRACE", (directory + "/env.json").c_str(), 1) == 0);
    const TwoStreamRun ids = run_two_streams(nullptr);
    ::unsetenv("CANOPY_TRACE");
    check_two_stream_trace(directory, "env", ids);

    // Off again: the next runtime writes nothing.
    REQUIRE(std::remove((directory + "/env.json").c_str()) == 0);
    REQUIRE_ACL(aclInit(nullptr));
    REQUIRE_ACL(aclFinalize());
    struct stat info {};
    CHECK(::stat((directory + "/env.json").c_str(), &info) != 0);
}

TEST_CASE("mstx markers land on the stream's marker track and the calling thread's track") {
    const TemporaryDirectory temporary;
    const std::string& directory = temporary.path();
    const ConfigFile config("{\"canopy\": {\"trace\": \"" + directory + "/mstx.json\"}}");
    REQUIRE_ACL(aclInit(config.path()));
    REQUIRE_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&stream));
    const int32_t id = stream_id(stream);
    mstxMarkA("host mark", nullptr);
    const mstxRangeId range = mstxRangeStartA("stream range", stream);
    CHECK(range != MSTX_INVALID_ID);
    REQUIRE_ACL(aclrtLaunchHostFunc(stream, nothing, nullptr));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    mstxRangeEnd(range);
    mstxDomainHandle_t domain = mstxDomainCreateA("my_domain");
    REQUIRE(domain != nullptr);
    mstxDomainMarkA(domain, "domain mark", stream);
    CHECK(mstxDomainRangeStartA(domain, nullptr, stream) == MSTX_INVALID_ID);
    mstxDomainDestroy(domain);
    CHECK(mstxDomainRangeStartA(domain, "destroyed", stream) == MSTX_INVALID_ID);
    uint64_t tool = 0;
    mstxGetToolId(&tool);
    CHECK(tool == MSTX_TOOL_MSPROF_ID);
    CHECK_ACL(aclrtDestroyStream(stream));
    REQUIRE_ACL(aclrtResetDevice(0));
    REQUIRE_ACL(aclFinalize());

    const json trace = read_json(directory + "/mstx.json");
    std::map<std::string, json> markers;
    for (const json& e : trace.at("traceEvents")) {
        if (e.contains("cat") && (e.at("cat") == "mstx" || e.at("cat") == "my_domain"))
            markers[e.at("name").get<std::string>()] = e;
    }
    REQUIRE(markers.size() == 3);
    CHECK(markers["host mark"].at("ph") == "i");
    CHECK(markers["host mark"].at("pid") != 0);  // the threads' process
    CHECK(markers["stream range"].at("ph") == "X");
    CHECK(markers["stream range"].at("pid") == 0);
    CHECK(markers["stream range"].at("dur").get<double>() > 0);
    CHECK(markers["domain mark"].at("cat") == "my_domain");
    CHECK(markers["domain mark"].at("tid") == markers["stream range"].at("tid"));
    CHECK(markers["domain mark"].at("tid") != id);  // beside the stream's operations, not among them
}

TEST_CASE("mstx calls that name a stream leave no hold on it behind: another thread destroys it at once") {
    const Runtime runtime;
    aclrtStream stream = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&stream));
    mstxDomainHandle_t domain = mstxDomainCreateA("pins");
    REQUIRE(domain != nullptr);
    // More than a thread's pins: a call that kept its pin would abort the process on the way.
    for (int i = 0; i < 200; ++i) {
        mstxMarkA("mark", stream);
        mstxRangeEnd(mstxRangeStartA("range", stream));
        mstxDomainMarkA(domain, "domain mark", stream);
        mstxDomainRangeEnd(domain, mstxDomainRangeStartA(domain, "domain range", stream));
    }
    mstxDomainDestroy(domain);
    auto destroyed = std::async(std::launch::async, [stream] { return aclrtDestroyStream(stream); });
    REQUIRE(destroyed.wait_for(std::chrono::seconds(30)) == std::future_status::ready);
    CHECK(destroyed.get() == ACL_SUCCESS);
}

TEST_CASE("the trace option must name a file") {
    const ConfigFile config("{\"canopy\": {\"trace\": 3}}");
    CHECK_ACL_CODE(aclInit(config.path()), ACL_ERROR_FILE_ATTR_INVALID);
    CHECK(recent_error().find("trace") != std::string::npos);
}

TEST_CASE("a replay's tasks are slices of their own, on a track per captured stream, linked to the replay") {
    const TemporaryDirectory temporary;
    const std::string& directory = temporary.path();
    const ConfigFile config("{\"canopy\": {\"trace\": \"" + directory + "/replay.json\"}}");
    REQUIRE_ACL(aclInit(config.path()));
    REQUIRE_ACL(aclrtSetDevice(0));
    aclrtStream origin = nullptr, side = nullptr, executing = nullptr;
    REQUIRE_ACL(aclrtCreateStream(&origin));
    REQUIRE_ACL(aclrtCreateStream(&side));
    REQUIRE_ACL(aclrtCreateStream(&executing));
    aclrtEvent fork = nullptr, join = nullptr;
    REQUIRE_ACL(aclrtCreateEventWithFlag(&fork, ACL_EVENT_SYNC));
    REQUIRE_ACL(aclrtCreateEventWithFlag(&join, ACL_EVENT_SYNC));
    void* device = nullptr;
    REQUIRE_ACL(aclrtMalloc(&device, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
    // Origin: a host function, fork, join, a host function; side: a memset between fork and join.
    REQUIRE_ACL(aclmdlRICaptureBegin(origin, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
    REQUIRE_ACL(aclrtLaunchHostFunc(origin, nothing, nullptr));
    REQUIRE_ACL(aclrtRecordEvent(fork, origin));
    REQUIRE_ACL(aclrtStreamWaitEvent(side, fork));
    REQUIRE_ACL(aclrtMemsetAsync(device, 4096, 1, 4096, side));
    REQUIRE_ACL(aclrtRecordEvent(join, side));
    REQUIRE_ACL(aclrtStreamWaitEvent(origin, join));
    REQUIRE_ACL(aclrtLaunchHostFunc(origin, nothing, nullptr));
    aclmdlRI model = nullptr;
    REQUIRE_ACL(aclmdlRICaptureEnd(origin, &model));
    const int32_t origin_id = stream_id(origin), side_id = stream_id(side), executing_id = stream_id(executing);
    constexpr int replays = 2;
    for (int i = 0; i < replays; ++i) REQUIRE_ACL(aclmdlRIExecuteAsync(model, executing));
    REQUIRE_ACL(aclrtSynchronizeStream(executing));
    CHECK_ACL(aclmdlRIDestroy(model));
    CHECK_ACL(aclrtFree(device));
    CHECK_ACL(aclrtDestroyEvent(fork));
    CHECK_ACL(aclrtDestroyEvent(join));
    CHECK_ACL(aclrtDestroyStream(origin));
    CHECK_ACL(aclrtDestroyStream(side));
    CHECK_ACL(aclrtDestroyStream(executing));
    REQUIRE_ACL(aclrtResetDevice(0));
    REQUIRE_ACL(aclFinalize());

    const json trace = read_json(directory + "/replay.json");
    std::vector<json> replay_ops, tasks;
    std::map<std::string, int> flow_phases;
    std::map<json, std::string> track_names;
    for (const json& e : trace.at("traceEvents")) {
        if (e.at("ph") == "M" && e.at("name") == "thread_name") track_names[e.at("tid")] = e.at("args").at("name");
        if (!e.contains("cat")) continue;
        if (e.at("cat") == "replay" && e.at("ph") == "X") tasks.push_back(e);
        if (e.at("cat") == "replay" && (e.at("ph") == "s" || e.at("ph") == "f")) ++flow_phases[e.at("ph")];
        if (e.at("ph") == "X" && e.at("tid") == executing_id && e.at("name") == "model") replay_ops.push_back(e);
    }
    // Each replay is one operation of the executing stream, and each of its tasks a slice.
    REQUIRE(replay_ops.size() == static_cast<std::size_t>(replays));
    // The tasks: two host functions and the memset (the event record and wait are graph edges).
    REQUIRE(tasks.size() == 3u * replays);
    std::set<std::uint64_t> replay_task_ids;
    for (const json& op : replay_ops) replay_task_ids.insert(op.at("args").at("task").get<std::uint64_t>());
    std::map<int32_t, std::set<json>> tracks;  // captured stream -> its tracks
    std::map<std::uint64_t, std::multiset<std::string>> per_replay;
    for (const json& task : tasks) {
        const json& args = task.at("args");
        CHECK(args.at("replay_stream") == executing_id);
        CHECK(replay_task_ids.count(args.at("replay_task").get<std::uint64_t>()) == 1);
        const int32_t captured = args.at("captured_stream");
        CHECK((captured == origin_id || captured == side_id));
        CHECK(task.at("tid") != executing_id);
        tracks[captured].insert(task.at("tid"));
        per_replay[args.at("replay_task")].insert(task.at("name").get<std::string>());
        // Each task runs within its replay: after the replay's operation started.
        for (const json& op : replay_ops) {
            if (op.at("args").at("task") == args.at("replay_task")) CHECK(task.at("ts").get<double>() >= op.at("ts").get<double>());
        }
    }
    // A track per captured stream, named after the executing stream and the captured one.
    REQUIRE(tracks.size() == 2);
    CHECK(tracks[origin_id].size() == 1);
    CHECK(tracks[side_id].size() == 1);
    CHECK(*tracks[origin_id].begin() != *tracks[side_id].begin());
    const std::string side_track = track_names[*tracks[side_id].begin()];
    CHECK(side_track.find("stream " + std::to_string(executing_id)) != std::string::npos);
    CHECK(side_track.find("captured stream " + std::to_string(side_id)) != std::string::npos);
    for (const auto& [replay, names] : per_replay) {
        CHECK(names.count("host function") == 2);
        CHECK(names.count("memset") == 1);
    }
    // Linked to their replay by a flow arrow each.
    CHECK(flow_phases["s"] == 3 * replays);
    CHECK(flow_phases["f"] == 3 * replays);

    // The profile counts the replay as one operation, not its tasks again.
    const auto summary = read_csv(directory + "/op_summary_replay.csv");
    int rows_of_executing = 0;
    for (std::size_t i = 1; i < summary.size(); ++i)
        if (summary[i].size() > 1 && summary[i][1] == std::to_string(executing_id)) ++rows_of_executing;
    CHECK(rows_of_executing == replays);
}
