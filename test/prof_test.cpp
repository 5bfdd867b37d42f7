// CANN's profiling API (acl/acl_prof.h, api/src/prof.cpp): the call order and its error codes, the
// config and stamp objects, and the session's files: a trace with the msproftx marks and ranges and
// the op_summary / op_statistic CSVs in the aclprofInit directory.
#include <dirent.h>
#include <sys/stat.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "acl/acl_prof.h"
#include "support.h"

using namespace canopy_test;
using nlohmann::json;

namespace {

// A fresh directory, removed with what the test wrote into it when the test ends.
std::vector<std::string> files_in(const std::string& directory) {
    std::vector<std::string> names;
    if (DIR* dir = ::opendir(directory.c_str())) {
        while (const dirent* entry = ::readdir(dir)) {
            const std::string name = entry->d_name;
            if (name != "." && name != "..") names.push_back(name);
        }
        ::closedir(dir);
    }
    return names;
}

std::string with_prefix(const std::vector<std::string>& names, const std::string& prefix) {
    for (const std::string& name : names)
        if (name.rfind(prefix, 0) == 0) return name;
    return {};
}

void nothing(void*) {}

uint32_t device_zero[1] = {0};
constexpr uint64_t task_and_tx = ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_MSPROFTX;

}  // namespace

TEST_CASE("aclprofInit needs the runtime, a path and a length") {
    const TemporaryDirectory temporary;
    const std::string& directory = temporary.path();
    CHECK_ACL_CODE(aclprofInit(directory.c_str(), directory.size()), ACL_ERROR_UNINITIALIZE);
    Runtime runtime;
    CHECK_ACL_CODE(aclprofInit(nullptr, 4), ACL_ERROR_INVALID_PARAM);
    CHECK(recent_error().find("aclprofInit") != std::string::npos);
    CHECK(recent_error().find("profilerResultPath") != std::string::npos);
    CHECK_ACL_CODE(aclprofInit(directory.c_str(), 0), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclprofInit(directory.c_str(), 5000), ACL_ERROR_INVALID_PARAM);
    const std::string file = directory + "/a_file";
    std::ofstream(file) << "x";
    CHECK_ACL_CODE(aclprofInit(file.c_str(), file.size()), ACL_ERROR_INVALID_PARAM);
    CHECK(recent_error().find("not a directory") != std::string::npos);

    // A missing directory is created, as msprof does.
    const std::string nested = directory + "/made/here";
    CHECK_ACL(aclprofInit(nested.c_str(), nested.size()));
    struct stat info {};
    CHECK(::stat(nested.c_str(), &info) == 0);
    CHECK(S_ISDIR(info.st_mode));
    CHECK_ACL_CODE(aclprofInit(nested.c_str(), nested.size()), ACL_ERROR_REPEAT_INITIALIZE);
    CHECK_ACL(aclprofFinalize());
    CHECK_ACL_CODE(aclprofFinalize(), ACL_ERROR_PROF_NOT_RUN);
}

TEST_CASE("configs are checked when created, started, stopped and destroyed") {
    Runtime runtime;
    uint32_t no_such_device[1] = {7};
    CHECK(aclprofCreateConfig(no_such_device, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME) == nullptr);
    CHECK(recent_error().find("deviceIdList[0]") != std::string::npos);
    CHECK(aclprofCreateConfig(nullptr, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME) == nullptr);
    CHECK(aclprofCreateConfig(device_zero, 1, static_cast<aclprofAicoreMetrics>(42), nullptr, ACL_PROF_TASK_TIME) ==
          nullptr);
    CHECK(aclprofCreateConfig(device_zero, 1, ACL_AICORE_NONE, nullptr, 1ULL << 40) == nullptr);
    uint32_t twice[2] = {0, 0};
    CHECK(aclprofCreateConfig(twice, 2, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME) == nullptr);
    // A count far beyond its one-element list is refused before the list is read.
    CHECK(aclprofCreateConfig(device_zero, UINT32_MAX, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME) == nullptr);
    CHECK(recent_error().find("deviceNums 4294967295 exceeds") != std::string::npos);

    aclprofConfig* config = aclprofCreateConfig(device_zero, 1, ACL_AICORE_ARITHMETIC_UTILIZATION, nullptr, task_and_tx);
    REQUIRE(config != nullptr);
    aclprofConfig* other = aclprofCreateConfig(device_zero, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME);
    REQUIRE(other != nullptr);

    // Wrong order: start and stop before aclprofInit.
    CHECK_ACL_CODE(aclprofStart(config), ACL_ERROR_PROF_NOT_RUN);
    CHECK_ACL_CODE(aclprofStop(config), ACL_ERROR_PROF_NOT_RUN);
    CHECK_ACL_CODE(aclprofStart(nullptr), ACL_ERROR_INVALID_PARAM);

    const TemporaryDirectory temporary;
    const std::string& directory = temporary.path();
    REQUIRE_ACL(aclprofInit(directory.c_str(), directory.size()));
    CHECK_ACL_CODE(aclprofStop(config), ACL_ERROR_PROF_NOT_RUN);
    REQUIRE_ACL(aclprofStart(config));
    CHECK_ACL_CODE(aclprofStart(config), ACL_ERROR_PROF_ALREADY_RUN);
    CHECK_ACL_CODE(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 2), ACL_ERROR_PROF_ALREADY_RUN);
    CHECK_ACL_CODE(aclprofStop(other), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclprofDestroyConfig(config), ACL_ERROR_INVALID_PARAM);  // still running
    CHECK_ACL(aclprofStop(config));
    CHECK_ACL_CODE(aclprofStop(config), ACL_ERROR_PROF_NOT_RUN);
    CHECK_ACL(aclprofFinalize());

    CHECK_ACL_CODE(aclprofDestroyConfig(nullptr), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL(aclprofDestroyConfig(config));
    CHECK_ACL_CODE(aclprofDestroyConfig(config), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL(aclprofDestroyConfig(other));
}

TEST_CASE("aclprofSetConfig checks the type and the value") {
    Runtime runtime;
    CHECK_ACL(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 2));
    CHECK_ACL(aclprofSetConfig(ACL_PROF_STORAGE_LIMIT, "200MB", 5));
    CHECK_ACL_CODE(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "fast", 4), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclprofSetConfig(static_cast<aclprofConfigType>(2), "1", 1), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclprofSetConfig(ACL_PROF_ARGS_MAX, "1", 1), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, nullptr, 2), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclprofSetConfig(ACL_PROF_SYS_HARDWARE_MEM_FREQ, "15", 0), ACL_ERROR_INVALID_PARAM);

    // ACL_PROF_PATH in place of aclprofInit: a session can start into that directory.
    const TemporaryDirectory temporary;
    const std::string& directory = temporary.path();
    REQUIRE_ACL(aclprofSetConfig(ACL_PROF_PATH, directory.c_str(), directory.size()));
    aclprofConfig* config = aclprofCreateConfig(device_zero, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME);
    REQUIRE(config != nullptr);
    CHECK_ACL(aclprofStart(config));
    CHECK_ACL(aclprofStop(config));
    CHECK(!with_prefix(files_in(directory), "msprof_").empty());
    CHECK_ACL(aclprofDestroyConfig(config));
}

TEST_CASE("a profiling session writes the timeline with its msproftx marks and ranges, and the CSVs") {
    Runtime runtime;
    const TemporaryDirectory temporary;
    const std::string& directory = temporary.path();
    REQUIRE_ACL(aclprofInit(directory.c_str(), directory.size()));
    aclprofConfig* config = aclprofCreateConfig(device_zero, 1, ACL_AICORE_ARITHMETIC_UTILIZATION, nullptr, task_and_tx);
    REQUIRE(config != nullptr);
    Stream stream;
    REQUIRE_ACL(aclprofStart(config));

    aclprofStepInfo* step = aclprofCreateStepInfo();
    REQUIRE(step != nullptr);
    CHECK_ACL(aclprofGetStepTimestamp(step, ACL_STEP_START, stream));
    CHECK_ACL_CODE(aclprofGetStepTimestamp(step, static_cast<aclprofStepTag>(5), stream), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclprofGetStepTimestamp(nullptr, ACL_STEP_START, stream), ACL_ERROR_INVALID_PARAM);

    void* mark = aclprofCreateStamp();
    void* outer = aclprofCreateStamp();
    void* range = aclprofCreateStamp();
    REQUIRE(mark != nullptr);
    REQUIRE(outer != nullptr);
    REQUIRE(range != nullptr);
    CHECK_ACL(aclprofSetStampTraceMessage(mark, "load_mark", 9));
    CHECK_ACL(aclprofSetStampTraceMessage(outer, "forward_pass_push", 17));
    CHECK_ACL(aclprofSetStampTraceMessage(range, "preprocess_range", 16));
    CHECK_ACL_CODE(aclprofSetStampTraceMessage(nullptr, "x", 1), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclprofSetStampTraceMessage(mark, nullptr, 1), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL_CODE(aclprofSetStampTraceMessage(mark, "x", 0), ACL_ERROR_INVALID_PARAM);

    CHECK_ACL(aclprofMark(mark));
    CHECK_ACL(aclprofPush(outer));
    uint32_t id = 0;
    CHECK_ACL(aclprofRangeStart(range, &id));
    CHECK(id != 0);
    CHECK_ACL_CODE(aclprofRangeStart(range, nullptr), ACL_ERROR_INVALID_PARAM);
    REQUIRE_ACL(aclrtLaunchHostFunc(stream, nothing, nullptr));
    REQUIRE_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclprofRangeStop(id));
    CHECK_ACL_CODE(aclprofRangeStop(id), ACL_ERROR_INVALID_PARAM);
    CHECK_ACL(aclprofMarkEx("on_stream", 9, stream));
    CHECK_ACL(aclprofPop());
    CHECK_ACL_CODE(aclprofPop(), ACL_ERROR_INVALID_PARAM);
    CHECK(recent_error().find("aclprofPop") != std::string::npos);
    CHECK_ACL(aclprofGetStepTimestamp(step, ACL_STEP_END, stream));
    aclprofDestroyStepInfo(step);

    aclprofDestroyStamp(mark);
    CHECK_ACL_CODE(aclprofMark(mark), ACL_ERROR_INVALID_PARAM);  // destroyed
    aclprofDestroyStamp(outer);
    aclprofDestroyStamp(range);

    CHECK_ACL(aclprofStop(config));
    CHECK_ACL(aclprofDestroyConfig(config));
    CHECK_ACL(aclprofFinalize());

    const std::vector<std::string> files = files_in(directory);
    const std::string trace_name = with_prefix(files, "msprof_");
    REQUIRE(!trace_name.empty());
    const std::string stem = trace_name.substr(7, trace_name.size() - 7 - 5);
    CHECK(!with_prefix(files, "op_summary_" + stem).empty());
    CHECK(!with_prefix(files, "op_statistic_" + stem).empty());

    std::ifstream file(directory + "/" + trace_name);
    const json trace = json::parse(file);
    std::map<std::string, json> markers;
    for (const json& e : trace.at("traceEvents")) {
        if (e.contains("cat") && (e.at("cat") == "msproftx" || e.at("cat") == "step"))
            markers[e.at("name").get<std::string>()] = e;
    }
    CHECK(markers["load_mark"].at("ph") == "i");
    CHECK(markers["forward_pass_push"].at("ph") == "X");
    CHECK(markers["preprocess_range"].at("ph") == "X");
    CHECK(markers["forward_pass_push"].at("dur").get<double>() >= markers["preprocess_range"].at("dur").get<double>());
    CHECK(markers["on_stream"].at("pid") == 0);
    CHECK(markers["step start"].at("ph") == "i");
    CHECK(markers["step end"].at("ph") == "i");
    bool host_function = false;
    for (const json& e : trace.at("traceEvents"))
        host_function = host_function || (e.at("ph") == "X" && e.at("name") == "host function");
    CHECK(host_function);
}

TEST_CASE("without ACL_PROF_MSPROFTX the stamps are accepted and not recorded") {
    Runtime runtime;
    const TemporaryDirectory temporary;
    const std::string& directory = temporary.path();
    REQUIRE_ACL(aclprofInit(directory.c_str(), directory.size()));
    aclprofConfig* config = aclprofCreateConfig(device_zero, 1, ACL_AICORE_NONE, nullptr, ACL_PROF_TASK_TIME);
    REQUIRE(config != nullptr);
    REQUIRE_ACL(aclprofStart(config));
    void* stamp = aclprofCreateStamp();
    CHECK_ACL(aclprofSetStampTraceMessage(stamp, "unseen", 6));
    CHECK_ACL(aclprofMark(stamp));
    aclprofDestroyStamp(stamp);
    CHECK_ACL(aclprofStop(config));
    CHECK_ACL(aclprofDestroyConfig(config));
    CHECK_ACL(aclprofFinalize());
    std::ifstream file(directory + "/" + with_prefix(files_in(directory), "msprof_"));
    const json trace = json::parse(file);
    for (const json& e : trace.at("traceEvents")) CHECK(e.value("name", std::string()) != "unseen");
}

TEST_CASE("the profiling API conflicts with a trace configured for the runtime") {
    const TemporaryDirectory temporary;
    const std::string& directory = temporary.path();
    const ConfigFile file("{\"canopy\": {\"trace\": \"" + directory + "/runtime.json\"}}");
    Runtime runtime(file.path());
    CHECK_ACL_CODE(aclprofInit(directory.c_str(), directory.size()), ACL_ERROR_PROF_API_CONFLICT);
}
