// CANN's profiling API (acl/acl_prof.h) and the mstx markers (mstx/ms_tools_ext.h) over the
// timeline recorder (canopy/engine/trace.h): aclprofStart starts a trace into the aclprofInit directory,
// aclprofStop writes it (msprof_<time>.json, op_summary_<time>.csv, op_statistic_<time>.csv).
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "acl/acl_prof.h"
#include "api.h"
#include "mstx/ms_tools_ext.h"
#include "canopy/engine/trace.h"

struct aclprofConfig {
    std::vector<std::uint32_t> devices;
    aclprofAicoreMetrics metrics;
    std::uint64_t data_types;
};

struct aclprofStepInfo {
    std::int64_t start_ns = 0;
    std::int64_t end_ns = 0;
};

struct mstxDomainRegistration_st {
    std::string name;
};

namespace canopy::api {

namespace trace = engine::trace;

namespace {

// What CANN's dataTypeConfig may hold.
constexpr std::uint64_t known_data_types =
    ACL_PROF_ACL_API | ACL_PROF_TASK_TIME | ACL_PROF_AICORE_METRICS | ACL_PROF_AICPU | ACL_PROF_L2CACHE |
    ACL_PROF_HCCL_TRACE | ACL_PROF_TRAINING_TRACE | ACL_PROF_MSPROFTX | ACL_PROF_RUNTIME_API | ACL_PROF_GE_API_L0 |
    ACL_PROF_TASK_TIME_L0 | ACL_PROF_TASK_MEMORY | ACL_PROF_GE_API_L1 | ACL_PROF_TASK_TIME_L2 | ACL_PROF_OP_ATTR |
    ACL_PROF_TASK_TIME_L3 | ACL_PROF_API_STATS;
constexpr std::size_t max_path = 4096;

struct Stamp {
    std::string message;
};

// The profiler's state between aclprofInit and aclprofFinalize; objects handed out are checked
// against these sets, so a destroyed or foreign pointer is an error rather than a crash.
struct Profiler {
    std::mutex mutex;
    bool initialized = false;
    std::string directory;  // from aclprofInit or aclprofSetConfig(ACL_PROF_PATH)
    const aclprofConfig* started = nullptr;
    bool msproftx = false;  // the started config collects msproftx
    std::unordered_map<int, std::string> settings;  // aclprofSetConfig, by type
    std::set<const aclprofConfig*> configs;
    std::set<const aclprofStepInfo*> steps;
    std::set<const Stamp*> stamps;
    std::unordered_map<std::uint32_t, std::uint64_t> ranges;  // aclprofRangeStart id -> trace range (0: not kept)
    std::uint32_t next_range = 0;
};
Profiler& profiler() {
    static Profiler& instance = *new Profiler;  // markers may come from threads still running at exit
    return instance;
}

// The aclprofPush stack of the calling thread (trace range ids, 0 for pushes not recorded).
thread_local std::vector<std::uint64_t> pushed;

std::mutex domain_mutex;
std::set<const mstxDomainRegistration_st*> domains;  // guarded by domain_mutex

// Whether msproftx stamps are recorded now: a profiling session that collects them, or a trace
// started by the runtime (CANOPY_TRACE), which records every marker.
bool msproftx_recording(Profiler& p) {
    return (p.started && p.msproftx) || trace::active(trace::Owner::runtime);
}

// A directory that exists (created if missing, as msprof does) and can be written.
std::string usable_directory(const char* path, std::size_t length, const char* argument) {
    require(path, argument);
    if (length == 0 || length > max_path) {
        fail(ACL_ERROR_INVALID_PARAM, std::string("length ") + std::to_string(length) + " of " + argument +
                                          " must be in [1, " + std::to_string(max_path) + "]");
    }
    std::string directory(path, strnlen(path, length));
    if (directory.empty()) fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " is empty");
    // Each missing level is created, like mkdir -p.
    for (std::size_t slash = directory.find('/', 1); ; slash = directory.find('/', slash + 1)) {
        const std::string prefix = directory.substr(0, slash);
        if (::mkdir(prefix.c_str(), 0750) != 0 && errno != EEXIST) {
            fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " \"" + directory + "\": cannot create \"" + prefix +
                                              "\": " + std::strerror(errno));
        }
        if (slash == std::string::npos) break;
    }
    struct stat info{};
    if (::stat(directory.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
        fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " \"" + directory + "\" is not a directory");
    if (::access(directory.c_str(), W_OK) != 0)
        fail(ACL_ERROR_INVALID_PARAM, std::string(argument) + " \"" + directory + "\" is not writable");
    while (directory.size() > 1 && directory.back() == '/') directory.pop_back();
    return directory;
}

// A marker's stream: a live stream handle, or none (the calling thread's track) for NULL; a handle
// that is not a live stream is an error for the aclprof calls, ignored by mstx (which has no error
// return).
const engine::Stream* marker_stream(aclrtStream stream, const char* argument) {
    if (!stream) return nullptr;
    return &stream_handle(state(), stream, argument);
}

// Runs `mark` with an mstx call's stream (nullptr for NULL or a handle that is not a live stream),
// which stays alive until `mark` returns: the handle's pin is released then, as `call()` releases
// its pins, since a pin left behind would outlive the call (and a thread holds only so many).
template <class Mark>
auto with_mstx_stream(aclrtStream stream, Mark&& mark) {
    const PinScope pins;
    const engine::Stream* resolved = nullptr;
    if (stream) {
        try {
            resolved = marker_stream(stream, "stream");
        } catch (const Error&) {
        }
    }
    return mark(resolved);
}

Stamp& live_stamp(Profiler& p, void* stamp) {
    require(stamp, "stamp");
    if (!p.stamps.count(static_cast<const Stamp*>(stamp)))
        fail(ACL_ERROR_INVALID_PARAM, "stamp " + describe(stamp) + " is not a live stamp of aclprofCreateStamp");
    return *static_cast<Stamp*>(stamp);
}

bool live_domain(mstxDomainHandle_t domain) {
    std::lock_guard lock(domain_mutex);
    return domains.count(domain) != 0;
}

}  // namespace

}  // namespace canopy::api

using namespace canopy;
using namespace canopy::api;

extern "C" {

aclError aclprofInit(const char* profilerResultPath, size_t length) {
    return call("aclprofInit", [&] {
        (void)state();  // after aclInit, as CANN requires
        Profiler& p = profiler();
        std::lock_guard lock(p.mutex);
        if (trace::active(trace::Owner::runtime)) {
            fail(ACL_ERROR_PROF_API_CONFLICT, "a trace was configured for the runtime (the aclInit \"trace\" option "
                                              "or CANOPY_TRACE); the profiling API cannot be used beside it");
        }
        if (p.initialized) fail(ACL_ERROR_REPEAT_INITIALIZE, "already initialized (aclprofFinalize first)");
        p.directory = usable_directory(profilerResultPath, length, "profilerResultPath");
        p.initialized = true;
    });
}

aclError aclprofFinalize() {
    return call("aclprofFinalize", [] {
        Profiler& p = profiler();
        std::lock_guard lock(p.mutex);
        if (!p.initialized) fail(ACL_ERROR_PROF_NOT_RUN, "aclprofInit has not been called");
        std::string error;
        if (p.started) error = trace::stop(trace::Owner::profiler);
        p.started = nullptr;
        p.initialized = false;
        p.directory.clear();
        p.settings.clear();
        if (!error.empty()) fail(ACL_ERROR_PROFILING_FAILURE, error);
    });
}

aclprofConfig* aclprofCreateConfig(uint32_t* deviceIdList, uint32_t deviceNums, aclprofAicoreMetrics aicoreMetrics,
                                   const aclprofAicoreEvents* aicoreEvents, uint64_t dataTypeConfig) {
    aclprofConfig* created = nullptr;
    call("aclprofCreateConfig", [&] {
        State& s = state();
        if (deviceNums > 0) require(deviceIdList, "deviceIdList");
        const auto metrics = raw_value(aicoreMetrics);
        if ((metrics < ACL_AICORE_ARITHMETIC_UTILIZATION || metrics > ACL_AICORE_MEMORY_ACCESS) &&
            metrics != ACL_AICORE_NONE) {
            fail(ACL_ERROR_INVALID_PARAM, "aicoreMetrics " + std::to_string(metrics) + " is not an aclprofAicoreMetrics");
        }
        if (aicoreEvents) fail(ACL_ERROR_INVALID_PARAM, "aicoreEvents must be NULL (CANN supports no events yet)");
        if ((dataTypeConfig & ~known_data_types) != 0) {
            fail(ACL_ERROR_INVALID_PARAM, "dataTypeConfig has unknown bits " +
                                              std::to_string(dataTypeConfig & ~known_data_types));
        }
        // Checked before the list is read: a count beyond the devices cannot name distinct devices,
        // and the list it claims may be far shorter.
        if (deviceNums > static_cast<std::uint32_t>(s.runtime.device_count())) {
            fail(ACL_ERROR_INVALID_PARAM, "deviceNums " + std::to_string(deviceNums) + " exceeds the " +
                                              std::to_string(s.runtime.device_count()) + " devices");
        }
        std::vector<std::uint32_t> devices(deviceIdList, deviceIdList + deviceNums);
        for (std::uint32_t i = 0; i < deviceNums; ++i) {
            if (devices[i] >= static_cast<std::uint32_t>(s.runtime.device_count())) {
                fail(ACL_ERROR_INVALID_PARAM, "deviceIdList[" + std::to_string(i) + "] = " + std::to_string(devices[i]) +
                                                  " is not a device (there are " +
                                                  std::to_string(s.runtime.device_count()) + ")");
            }
            for (std::uint32_t j = 0; j < i; ++j) {
                if (devices[j] == devices[i])
                    fail(ACL_ERROR_INVALID_PARAM, "deviceIdList names device " + std::to_string(devices[i]) + " twice");
            }
        }
        auto* config = new aclprofConfig{std::move(devices), aicoreMetrics, dataTypeConfig};
        Profiler& p = profiler();
        std::lock_guard lock(p.mutex);
        p.configs.insert(config);
        created = config;
    });
    return created;
}

aclError aclprofDestroyConfig(const aclprofConfig* profilerConfig) {
    return call("aclprofDestroyConfig", [&] {
        require(profilerConfig, "profilerConfig");
        Profiler& p = profiler();
        std::lock_guard lock(p.mutex);
        if (!p.configs.count(profilerConfig))
            fail(ACL_ERROR_INVALID_PARAM, "profilerConfig " + describe(profilerConfig) + " is not a live config");
        if (p.started == profilerConfig)
            fail(ACL_ERROR_INVALID_PARAM, "profilerConfig is the running session's (aclprofStop first)");
        p.configs.erase(profilerConfig);
        delete profilerConfig;
    });
}

aclError aclprofSetConfig(aclprofConfigType configType, const char* config, size_t configLength) {
    return call("aclprofSetConfig", [&] {
        const auto type = raw_value(configType);
        if (type <= ACL_PROF_ARGS_MIN || type >= ACL_PROF_ARGS_MAX || type == 2)
            fail(ACL_ERROR_INVALID_PARAM, "configType " + std::to_string(type) + " is not an aclprofConfigType");
        require(config, "config");
        if (configLength == 0 || configLength > max_path)
            fail(ACL_ERROR_INVALID_PARAM, "configLength " + std::to_string(configLength) + " must be in [1, 4096]");
        Profiler& p = profiler();
        std::lock_guard lock(p.mutex);
        if (p.started) fail(ACL_ERROR_PROF_ALREADY_RUN, "profiling has started: aclprofSetConfig goes before aclprofStart");
        if (type == ACL_PROF_PATH) {
            p.directory = usable_directory(config, configLength, "config");
            p.settings[type] = p.directory;
            return;
        }
        const std::string value(config, strnlen(config, configLength));
        // The sampling frequencies and limits are numbers; the others are switches or names.
        const bool numeric = type == ACL_PROF_STORAGE_LIMIT || type == ACL_PROF_SYS_HARDWARE_MEM_FREQ ||
                             type == ACL_PROF_SYS_IO_FREQ || type == ACL_PROF_SYS_INTERCONNECTION_FREQ ||
                             type == ACL_PROF_DVPP_FREQ || type == ACL_PROF_HOST_SYS_USAGE_FREQ ||
                             type == ACL_PROF_LOW_POWER_FREQ || type == ACL_PROF_SYS_CPU_FREQ;
        if (numeric) {
            std::string digits = value;
            if (type == ACL_PROF_STORAGE_LIMIT && digits.size() > 2 && digits.compare(digits.size() - 2, 2, "MB") == 0)
                digits.resize(digits.size() - 2);
            if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 9 ||
                std::stoul(digits) == 0) {
                fail(ACL_ERROR_INVALID_PARAM, "config \"" + value + "\" for configType " + std::to_string(type) +
                                                  " must be a positive number");
            }
        }
        // Kept for the session; on a CPU only the path changes what is collected.
        p.settings[type] = value;
    });
}

aclError aclprofStart(const aclprofConfig* profilerConfig) {
    return call("aclprofStart", [&] {
        require(profilerConfig, "profilerConfig");
        Profiler& p = profiler();
        std::lock_guard lock(p.mutex);
        if (!p.configs.count(profilerConfig))
            fail(ACL_ERROR_INVALID_PARAM, "profilerConfig " + describe(profilerConfig) + " is not a live config");
        if (!p.initialized && p.directory.empty())
            fail(ACL_ERROR_PROF_NOT_RUN, "aclprofInit has not been called");
        if (p.started) fail(ACL_ERROR_PROF_ALREADY_RUN, "profiling has already started (aclprofStop first)");
        if (trace::active(trace::Owner::runtime)) {
            fail(ACL_ERROR_PROF_API_CONFLICT, "a trace was configured for the runtime (the aclInit \"trace\" option "
                                              "or CANOPY_TRACE)");
        }
        if (!trace::start(trace::msprof_path(p.directory), trace::Owner::profiler))
            fail(ACL_ERROR_PROF_ALREADY_RUN, "a trace is already recording");
        p.started = profilerConfig;
        p.msproftx = (profilerConfig->data_types & ACL_PROF_MSPROFTX) != 0;
    });
}

aclError aclprofStop(const aclprofConfig* profilerConfig) {
    return call("aclprofStop", [&] {
        require(profilerConfig, "profilerConfig");
        Profiler& p = profiler();
        std::lock_guard lock(p.mutex);
        if (!p.configs.count(profilerConfig))
            fail(ACL_ERROR_INVALID_PARAM, "profilerConfig " + describe(profilerConfig) + " is not a live config");
        if (!p.started) fail(ACL_ERROR_PROF_NOT_RUN, "profiling has not started (aclprofStart)");
        if (p.started != profilerConfig)
            fail(ACL_ERROR_INVALID_PARAM, "profilerConfig is not the config that aclprofStart was given");
        p.started = nullptr;
        const std::string error = trace::stop(trace::Owner::profiler);
        if (!error.empty()) fail(ACL_ERROR_PROFILING_FAILURE, error);
    });
}

aclprofStepInfo* aclprofCreateStepInfo() {
    aclprofStepInfo* created = nullptr;
    call("aclprofCreateStepInfo", [&] {
        auto* step = new aclprofStepInfo;
        Profiler& p = profiler();
        std::lock_guard lock(p.mutex);
        p.steps.insert(step);
        created = step;
    });
    return created;
}

void aclprofDestroyStepInfo(aclprofStepInfo* stepinfo) {
    call("aclprofDestroyStepInfo", [&] {
        require(stepinfo, "stepinfo");
        Profiler& p = profiler();
        std::lock_guard lock(p.mutex);
        if (!p.steps.erase(stepinfo)) fail(ACL_ERROR_INVALID_PARAM, "stepinfo " + describe(stepinfo) + " is not live");
        delete stepinfo;
    });
}

aclError aclprofGetStepTimestamp(aclprofStepInfo* stepInfo, aclprofStepTag tag, aclrtStream stream) {
    return call("aclprofGetStepTimestamp", [&] {
        require(stepInfo, "stepInfo");
        const auto value = raw_value(tag);
        if (value != ACL_STEP_START && value != ACL_STEP_END)
            fail(ACL_ERROR_INVALID_PARAM, "tag " + std::to_string(value) + " is not an aclprofStepTag");
        State& s = state();
        const engine::Stream& target = target_stream(s, stream, "stream");
        {
            Profiler& p = profiler();
            std::lock_guard lock(p.mutex);
            if (!p.steps.count(stepInfo)) fail(ACL_ERROR_INVALID_PARAM, "stepInfo " + describe(stepInfo) + " is not live");
        }
        const std::int64_t now = engine::now_ns();
        (value == ACL_STEP_START ? stepInfo->start_ns : stepInfo->end_ns) = now;
        trace::mark("step", value == ACL_STEP_START ? "step start" : "step end", &target);
    });
}

void* aclprofCreateStamp() {
    void* created = nullptr;
    call("aclprofCreateStamp", [&] {
        auto* stamp = new Stamp;
        Profiler& p = profiler();
        std::lock_guard lock(p.mutex);
        p.stamps.insert(stamp);
        created = stamp;
    });
    return created;
}

void aclprofDestroyStamp(void* stamp) {
    call("aclprofDestroyStamp", [&] {
        Profiler& p = profiler();
        std::lock_guard lock(p.mutex);
        Stamp& live = live_stamp(p, stamp);
        p.stamps.erase(&live);
        delete &live;
    });
}

aclError aclprofSetStampTraceMessage(void* stamp, const char* msg, uint32_t msgLen) {
    return call("aclprofSetStampTraceMessage", [&] {
        require(msg, "msg");
        if (msgLen == 0 || msgLen > max_path)
            fail(ACL_ERROR_INVALID_PARAM, "msgLen " + std::to_string(msgLen) + " must be in [1, 4096]");
        Profiler& p = profiler();
        std::lock_guard lock(p.mutex);
        live_stamp(p, stamp).message.assign(msg, strnlen(msg, msgLen));
    });
}

aclError aclprofMark(void* stamp) {
    return call("aclprofMark", [&] {
        Profiler& p = profiler();
        std::lock_guard lock(p.mutex);
        const Stamp& live = live_stamp(p, stamp);
        if (msproftx_recording(p)) trace::mark("msproftx", live.message.c_str(), nullptr);
    });
}

aclError aclprofMarkEx(const char* msg, size_t msgLen, aclrtStream stream) {
    return call("aclprofMarkEx", [&] {
        require(msg, "msg");
        if (msgLen == 0 || msgLen > max_path)
            fail(ACL_ERROR_INVALID_PARAM, "msgLen " + std::to_string(msgLen) + " must be in [1, 4096]");
        const engine::Stream* target = marker_stream(stream, "stream");
        const std::string message(msg, strnlen(msg, msgLen));
        Profiler& p = profiler();
        std::lock_guard lock(p.mutex);
        if (msproftx_recording(p)) trace::mark("msproftx", message.c_str(), target);
    });
}

aclError aclprofPush(void* stamp) {
    return call("aclprofPush", [&] {
        Profiler& p = profiler();
        std::lock_guard lock(p.mutex);
        const Stamp& live = live_stamp(p, stamp);
        pushed.push_back(msproftx_recording(p) ? trace::range_start("msproftx", live.message.c_str(), nullptr) : 0);
    });
}

aclError aclprofPop() {
    return call("aclprofPop", [] {
        if (pushed.empty()) fail(ACL_ERROR_INVALID_PARAM, "no aclprofPush of this thread is open");
        const std::uint64_t range = pushed.back();
        pushed.pop_back();
        if (range != 0) trace::range_end(range);
    });
}

aclError aclprofRangeStart(void* stamp, uint32_t* rangeId) {
    return call("aclprofRangeStart", [&] {
        require(rangeId, "rangeId");
        Profiler& p = profiler();
        std::lock_guard lock(p.mutex);
        const Stamp& live = live_stamp(p, stamp);
        std::uint32_t id = ++p.next_range;
        if (id == 0) id = ++p.next_range;  // wrapped: 0 is never an id
        p.ranges[id] = msproftx_recording(p) ? trace::range_start("msproftx", live.message.c_str(), nullptr) : 0;
        *rangeId = id;
    });
}

aclError aclprofRangeStop(uint32_t rangeId) {
    return call("aclprofRangeStop", [&] {
        Profiler& p = profiler();
        std::lock_guard lock(p.mutex);
        const auto found = p.ranges.find(rangeId);
        if (found == p.ranges.end())
            fail(ACL_ERROR_INVALID_PARAM, "rangeId " + std::to_string(rangeId) + " is not an open range of aclprofRangeStart");
        if (found->second != 0) trace::range_end(found->second);
        p.ranges.erase(found);
    });
}

// ---- mstx: no error returns; invalid arguments are ignored (an invalid range start returns 0).

void mstxMarkA(const char* message, aclrtStream stream) {
    if (!message) return;
    with_mstx_stream(stream, [&](const engine::Stream* on) { trace::mark("mstx", message, on); });
}

mstxRangeId mstxRangeStartA(const char* message, aclrtStream stream) {
    if (!message) return MSTX_INVALID_ID;
    return with_mstx_stream(stream, [&](const engine::Stream* on) { return trace::range_start("mstx", message, on); });
}

void mstxRangeEnd(mstxRangeId id) {
    if (id != MSTX_INVALID_ID) trace::range_end(id);
}

mstxDomainHandle_t mstxDomainCreateA(const char* name) {
    if (!name) return nullptr;
    try {
        auto* domain = new mstxDomainRegistration_st{name};
        std::lock_guard lock(domain_mutex);
        domains.insert(domain);
        return domain;
    } catch (const std::bad_alloc&) {
        return nullptr;
    }
}

void mstxDomainDestroy(mstxDomainHandle_t domain) {
    std::lock_guard lock(domain_mutex);
    if (domains.erase(domain)) delete domain;
}

void mstxDomainMarkA(mstxDomainHandle_t domain, const char* message, aclrtStream stream) {
    if (!message || !live_domain(domain)) return;
    std::string name;
    {
        std::lock_guard lock(domain_mutex);
        name = domain->name;
    }
    with_mstx_stream(stream, [&](const engine::Stream* on) { trace::mark(name.c_str(), message, on); });
}

mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char* message, aclrtStream stream) {
    if (!message || !live_domain(domain)) return MSTX_INVALID_ID;
    std::string name;
    {
        std::lock_guard lock(domain_mutex);
        name = domain->name;
    }
    return with_mstx_stream(stream,
                            [&](const engine::Stream* on) { return trace::range_start(name.c_str(), message, on); });
}

void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id) {
    if (id == MSTX_INVALID_ID || !live_domain(domain)) return;
    trace::range_end(id);
}

void mstxGetToolId(uint64_t* id) {
    if (id) *id = trace::active() ? MSTX_TOOL_MSPROF_ID : MSTX_TOOL_INVALID_ID;
}

}  // extern "C"
