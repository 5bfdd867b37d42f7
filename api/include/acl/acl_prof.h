/* AscendCL profiling (CANN's acl/acl_prof.h: names, signatures and values). On Canopy a profiling
 * session is a timeline of the program's operations in the Chrome trace event format, with
 * msprof-shaped op_summary / op_statistic CSVs, written into the aclprofInit directory at
 * aclprofStop; msproftx stamps appear on it as marks and ranges. The model subscription API
 * (aclprofModelSubscribe, aclprofGetOp*) is not provided. */
#ifndef INC_EXTERNAL_ACL_PROF_H_
#define INC_EXTERNAL_ACL_PROF_H_

#if (defined(_WIN32) || defined(_WIN64) || defined(_MSC_VER))
#define MSVP_PROF_API __declspec(dllexport)
#else
#define MSVP_PROF_API __attribute__((visibility("default")))
#endif

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Data collected (aclprofCreateConfig's dataTypeConfig). */
#define ACL_PROF_ACL_API                0x0001ULL
#define ACL_PROF_TASK_TIME              0x0002ULL
#define ACL_PROF_AICORE_METRICS         0x0004ULL
#define ACL_PROF_AICPU                  0x0008ULL
#define ACL_PROF_L2CACHE                0x0010ULL
#define ACL_PROF_HCCL_TRACE             0x0020ULL
#define ACL_PROF_TRAINING_TRACE         0x0040ULL
#define ACL_PROF_MSPROFTX               0x0080ULL
#define ACL_PROF_RUNTIME_API            0x0100ULL
#define ACL_PROF_GE_API_L0              0x0200ULL
#define ACL_PROF_TASK_TIME_L0           0x0800ULL
#define ACL_PROF_TASK_MEMORY            0x1000ULL
#define ACL_PROF_GE_API_L1              0x01000000ULL
#define ACL_PROF_TASK_TIME_L2           0x2000ULL
#define ACL_PROF_OP_ATTR                0x4000ULL
#define ACL_PROF_TASK_TIME_L3           0x8000ULL
#define ACL_PROF_API_STATS              0x400000000ULL

#define ACL_PROF_MAX_OP_NAME_LEN        257
#define ACL_PROF_MAX_OP_TYPE_LEN        65

typedef enum {
    ACL_AICORE_ARITHMETIC_UTILIZATION = 0,
    ACL_AICORE_PIPE_UTILIZATION = 1,
    ACL_AICORE_MEMORY_BANDWIDTH = 2,
    ACL_AICORE_L0B_AND_WIDTH = 3,
    ACL_AICORE_RESOURCE_CONFLICT_RATIO = 4,
    ACL_AICORE_MEMORY_UB = 5,
    ACL_AICORE_L2_CACHE = 6,
    ACL_AICORE_PIPE_EXECUTE_UTILIZATION = 7,
    ACL_AICORE_MEMORY_ACCESS = 8,
    ACL_AICORE_NONE = 0xFF
} aclprofAicoreMetrics;

typedef enum {
    ACL_STEP_START = 0,
    ACL_STEP_END = 1
} aclprofStepTag;

typedef enum {
    ACL_SUBSCRIBE_OP = 0,
    ACL_SUBSCRIBE_SUBGRAPH = 1,
    ACL_SUBSCRIBE_OP_THREAD = 2,
    ACL_SUBSCRIBE_NONE = 0xFF
} aclprofSubscribeOpFlag;

typedef enum {
    ACL_SUBSCRIBE_ATTRI_THREADID = 0,
    ACL_SUBSCRIBE_ATTRI_NONE
} aclprofSubscribeOpAttri;

typedef enum {
    ACL_PROF_ARGS_MIN                   = 0,
    ACL_PROF_STORAGE_LIMIT              = 1,
    ACL_PROF_SYS_HARDWARE_MEM_FREQ      = 3,
    ACL_PROF_LLC_MODE                   = 4,
    ACL_PROF_SYS_IO_FREQ                = 5,
    ACL_PROF_SYS_INTERCONNECTION_FREQ   = 6,
    ACL_PROF_DVPP_FREQ                  = 7,
    ACL_PROF_HOST_SYS                   = 8,
    ACL_PROF_HOST_SYS_USAGE             = 9,
    ACL_PROF_HOST_SYS_USAGE_FREQ        = 10,
    ACL_PROF_LOW_POWER_FREQ             = 11,
    ACL_PROF_SYS_MEM_SERVICEFLOW        = 12,
    ACL_PROF_SYS_CPU_FREQ               = 13,
    ACL_PROF_OPTYPE                     = 14,
    ACL_PROF_NTS_METRICS                = 15,
    ACL_PROF_PATH                       = 16,
    ACL_PROF_ARGS_MAX                   = 17
} aclprofConfigType;

typedef struct aclprofConfig aclprofConfig;
typedef struct aclprofStopConfig aclprofStopConfig;
typedef struct aclprofAicoreEvents aclprofAicoreEvents;
typedef struct aclprofSubscribeConfig aclprofSubscribeConfig;
typedef struct aclprofStepInfo aclprofStepInfo;
typedef struct aclprofEventAttributes aclprofEventAttributes;

/* Sets the directory the profile data goes to (created when missing); after aclInit. */
MSVP_PROF_API aclError aclprofInit(const char *profilerResultPath, size_t length);
/* Ends profiling (stopping a session still running). */
MSVP_PROF_API aclError aclprofFinalize();
/* Starts collecting for the config's devices: a trace into the aclprofInit directory. */
MSVP_PROF_API aclError aclprofStart(const aclprofConfig *profilerConfig);
MSVP_PROF_API aclprofConfig *aclprofCreateConfig(uint32_t *deviceIdList, uint32_t deviceNums,
    aclprofAicoreMetrics aicoreMetrics, const aclprofAicoreEvents *aicoreEvents, uint64_t dataTypeConfig);
MSVP_PROF_API aclError aclprofDestroyConfig(const aclprofConfig *profilerConfig);
/* Stops the session started with the same config and writes its files. */
MSVP_PROF_API aclError aclprofStop(const aclprofConfig *profilerConfig);
/* Before aclprofStart; ACL_PROF_PATH sets the directory as aclprofInit does. */
MSVP_PROF_API aclError aclprofSetConfig(aclprofConfigType configType, const char *config, size_t configLength);

/* Steps: a timestamp of the stream's position, also a mark on its track. */
MSVP_PROF_API aclError aclprofGetStepTimestamp(aclprofStepInfo* stepInfo, aclprofStepTag tag, aclrtStream stream);
MSVP_PROF_API aclprofStepInfo* aclprofCreateStepInfo();
MSVP_PROF_API void aclprofDestroyStepInfo(aclprofStepInfo* stepinfo);

/* msproftx: stamps carry a message; marks, push / pop and ranges are recorded on the calling
 * thread's track while a session with ACL_PROF_MSPROFTX (or a Canopy trace) records. */
MSVP_PROF_API void *aclprofCreateStamp();
MSVP_PROF_API void aclprofDestroyStamp(void *stamp);
MSVP_PROF_API aclError aclprofPush(void *stamp);
MSVP_PROF_API aclError aclprofPop();
MSVP_PROF_API aclError aclprofRangeStart(void *stamp, uint32_t *rangeId);
MSVP_PROF_API aclError aclprofRangeStop(uint32_t rangeId);
MSVP_PROF_API aclError aclprofSetStampTraceMessage(void *stamp, const char *msg, uint32_t msgLen);
MSVP_PROF_API aclError aclprofMark(void *stamp);
/* A mark with a message on the stream's track. */
MSVP_PROF_API aclError aclprofMarkEx(const char *msg, size_t msgLen, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // INC_EXTERNAL_ACL_PROF_H_
