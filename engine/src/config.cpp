#include "canopy/engine/config.h"

#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "acl/error_codes/acl_error_codes.h"
#include "acl/error_codes/rt_error_codes.h"

namespace canopy::engine {

int RuntimeConfig::effective_workers() const {
    if (workers_per_device > 0) return workers_per_device;
    return std::max(1u, std::thread::hardware_concurrency());
}

namespace {
std::size_t read_count(const nlohmann::json& section, const char* key, std::size_t low, std::size_t high,
                       const std::string& path) {
    const auto& value = section.at(key);
    if (!value.is_number_integer() || value.get<long long>() < static_cast<long long>(low) ||
        value.get<long long>() > static_cast<long long>(high)) {
        throw ConfigError{ACL_ERROR_FILE_ATTR_INVALID, path + ": \"canopy\"." + key + " must be an integer in [" +
                                                          std::to_string(low) + ", " + std::to_string(high) + "]"};
    }
    return value.get<std::size_t>();
}
}  // namespace

RuntimeConfig load_config(const std::string& path) {
    std::ifstream file(path);
    if (!file) throw ConfigError{ACL_ERROR_INVALID_FILE, path + ": cannot open the file"};
    nlohmann::json document;
    try {
        document = nlohmann::json::parse(file);
    } catch (const nlohmann::json::parse_error& error) {
        throw ConfigError{ACL_ERROR_PARSE_FILE, path + ": not valid JSON: " + error.what()};
    }
    RuntimeConfig config;
    if (!document.is_object()) throw ConfigError{ACL_ERROR_PARSE_FILE, path + ": the top level must be an object"};
    auto section = document.find("canopy");
    if (section == document.end()) return config;
    if (!section->is_object()) throw ConfigError{ACL_ERROR_FILE_ATTR_INVALID, path + ": \"canopy\" must be an object"};
    for (const auto& [key, value] : section->items()) {
        if (key == "device_count") {
            config.device_count = static_cast<int>(read_count(*section, "device_count", 1, 64, path));
        } else if (key == "workers_per_device") {
            config.workers_per_device = static_cast<int>(read_count(*section, "workers_per_device", 0, 256, path));
        } else if (key == "ub_size_kb") {
            config.ub_bytes = read_count(*section, "ub_size_kb", 16, 4096, path) * 1024;
        } else if (key == "device_memory_mb") {
            config.device_memory_bytes = read_count(*section, "device_memory_mb", 1, std::size_t{1} << 24, path) << 20;
        } else if (key == "sync_copies_wait") {
            if (!value.is_boolean()) {
                throw ConfigError{ACL_ERROR_FILE_ATTR_INVALID, path + ": \"canopy\".sync_copies_wait must be true or false"};
            }
            config.sync_copies_wait = value.get<bool>();
        } else if (key == "queue_depth") {
            config.queue_depth = read_count(*section, "queue_depth", 64, std::size_t{1} << 24, path);
        } else if (key == "queue_full") {
            if (value != "wait" && value != "fail") {
                throw ConfigError{ACL_ERROR_FILE_ATTR_INVALID, path + ": \"canopy\".queue_full must be \"wait\" or \"fail\""};
            }
            config.queue_full_fails = value == "fail";
        } else if (key == "trace") {
            if (!value.is_string() || value.get<std::string>().empty()) {
                throw ConfigError{ACL_ERROR_FILE_ATTR_INVALID, path + ": \"canopy\".trace must be a file name (a string)"};
            }
            config.trace = value.get<std::string>();
        } else {
            throw ConfigError{ACL_ERROR_FILE_ATTR_INVALID, path + ": unknown option \"canopy\"." + key};
        }
    }
    return config;
}

}  // namespace canopy::engine
