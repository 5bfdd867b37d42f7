/* The mstx marker API (CANN's mstx/ms_tools_ext.h: names and signatures). On Canopy the functions
 * are exported by libascendcl (also reached as libmsprofiler); marks and ranges appear on the
 * timeline of a running trace (CANOPY_TRACE, the aclInit "trace" option or aclprofStart): on the
 * stream's marker track when a stream is given, else on the calling thread's track. */
#ifndef MSTX_TOOLS_EXT
#define MSTX_TOOLS_EXT

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) || defined(_WIN64) || defined(_MSC_VER)
#define MSTX_DECLSPEC __declspec(dllexport)
#else
#define MSTX_DECLSPEC __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define MSTX_SUCCESS 0
#define MSTX_FAIL 1
#define MSTX_INVALID_ID 0

#define MSTX_TOOL_INVALID_ID 0x0
#define MSTX_TOOL_MSPROF_ID 0x1000

typedef uint64_t mstxRangeId;
typedef void* aclrtStream;

struct mstxDomainRegistration_st;
typedef struct mstxDomainRegistration_st mstxDomainRegistration_t;
typedef mstxDomainRegistration_t* mstxDomainHandle_t;

/* An instant marker; stream may be NULL. */
MSTX_DECLSPEC void mstxMarkA(const char *message, aclrtStream stream);
/* Starts a range; returns its id for mstxRangeEnd, 0 when message is NULL. */
MSTX_DECLSPEC mstxRangeId mstxRangeStartA(const char *message, aclrtStream stream);
MSTX_DECLSPEC void mstxRangeEnd(mstxRangeId id);

/* Domains group markers under a name (the trace event's category); NULL when name is NULL. */
MSTX_DECLSPEC mstxDomainHandle_t mstxDomainCreateA(const char *name);
MSTX_DECLSPEC void mstxDomainDestroy(mstxDomainHandle_t domain);
MSTX_DECLSPEC void mstxDomainMarkA(mstxDomainHandle_t domain, const char *message, aclrtStream stream);
/* 0 for a NULL message or a domain that is not live. */
MSTX_DECLSPEC mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char *message, aclrtStream stream);
MSTX_DECLSPEC void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id);

/* MSTX_TOOL_MSPROF_ID while a trace records, MSTX_TOOL_INVALID_ID otherwise. */
MSTX_DECLSPEC void mstxGetToolId(uint64_t *id);

#ifdef __cplusplus
}
#endif

#endif /* MSTX_TOOLS_EXT */
