#include "library_errors.h"

#include "api.h"

void canopy::api::report_library_error(const char* api, int code, const char* message) {
    record_error(api, code, message);
}
