#include "core/harness/opencode/opencode_log.h"

#include <sys/stat.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "core/cache/file_stamp.h"
#include "core/harness/opencode/opencode_schema.h"
#include "core/harness/opencode/opencode_store.h"
#include "core/harness/opencode/sqlite_readonly.h"

namespace csift {

namespace {

using ojson = nlohmann::ordered_json;

// What of the database file and its write-ahead log a change would alter.
struct OpenCodeFileState {
  bool exists = false;
  int64_t size = 0, mtime_ns = 0;
  bool operator==(const OpenCodeFileState&) const = default;
};

std::pair<OpenCodeFileState, OpenCodeFileState> opencode_db_state(const std::string& path) {
  const auto one = [](const std::string& p) {
    OpenCodeFileState s;
    struct stat st {};
    if (::stat(p.c_str(), &st) == 0) {
      s.exists = true;
      s.size = st.st_size;
      s.mtime_ns = stamp_of_stat(st).mtime_ns;
    }
    return s;
  };
  return {one(path), one(path + "-wal")};
}

// An inline file (`data:<mime>;base64,…`) is kept as its type and size only: the log is for reading and
// searching what happened, and a pasted image would make one line megabytes long.
void opencode_drop_inline_data(ojson& j) {
  if (j.is_object() || j.is_array()) {
    for (auto& v : j)
      opencode_drop_inline_data(v);
    return;
  }
  if (!j.is_string()) return;
  const std::string& s = j.get_ref<const std::string&>();
  if (s.size() <= 256 || s.compare(0, 5, "data:") != 0) return;
  const size_t comma = s.find(',');
  const std::string head = s.substr(0, std::min(comma, size_t{128}));
  j = head + ",[" + std::to_string(s.size()) + " bytes of inline data not kept]";
}

// `data` parsed and given back the keys OpenCode keeps in columns; nullopt when it is not a JSON object.
std::optional<ojson> opencode_row_object(const std::string& data,
                                         std::initializer_list<std::pair<const char*, std::string>> keys) {
  ojson obj = ojson::parse(data, nullptr, false);
  if (obj.is_discarded() || !obj.is_object()) return std::nullopt;
  opencode_drop_inline_data(obj);
  for (const auto& [k, v] : keys)
    obj[k] = v;
  return obj;
}

std::string opencode_dump(const ojson& j) {
  return j.dump(-1, ' ', false, ojson::error_handler_t::replace);
}

bool opencode_read_v1(ReadOnlyDb& db, const std::string& sid, const std::string& dir, OpenCodeLog& out) {
  std::map<std::string, std::vector<std::string>> parts;  // message id -> part data texts, by part id
  bool ok = db.query("SELECT id, message_id, data FROM part WHERE session_id = ? ORDER BY message_id, id",
                     {sid}, [&](const SqlRow& r) {
                       auto obj = opencode_row_object(
                           r.text(2), {{"id", r.text(0)}, {"messageID", r.text(1)}, {"sessionID", sid}});
                       parts[r.text(1)].push_back(obj ? opencode_dump(*obj) : std::string());
                       return true;
                     });
  if (!ok) return false;
  return db.query("SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created, id", {sid},
                  [&](const SqlRow& r) {
                    const std::string id = r.text(0);
                    auto info = opencode_row_object(r.text(1), {{"id", id}, {"sessionID", sid}});
                    if (!info) {
                      out.lines.push_back(r.text(1));  // kept verbatim: the reader reports it malformed
                      return true;
                    }
                    ojson line = ojson::object();
                    line["info"] = std::move(*info);
                    line["parts"] = ojson::array();
                    for (const std::string& p : parts[id]) {
                      ojson part = ojson::parse(p, nullptr, false);
                      line["parts"].push_back(part.is_discarded() ? ojson(nullptr) : std::move(part));
                    }
                    line["directory"] = dir;
                    out.lines.push_back(opencode_dump(line));
                    return true;
                  });
}

bool opencode_read_v2(ReadOnlyDb& db, const std::string& sid, std::string dir, OpenCodeLog& out) {
  return db.query(
      "SELECT id, type, seq, time_created, data FROM session_message WHERE session_id = ? ORDER BY seq",
      {sid}, [&](const SqlRow& r) {
        ojson data = ojson::parse(r.text(4), nullptr, false);
        if (data.is_discarded() || !data.is_object()) {
          out.lines.push_back(r.text(4));
          return true;
        }
        opencode_drop_inline_data(data);
        const std::string type = r.text(1);
        if (type == "location-switched") {
          const auto loc = data.find("location");
          if (loc != data.end() && loc->is_object() && loc->contains("directory") &&
              (*loc)["directory"].is_string())
            dir = (*loc)["directory"].get<std::string>();
        }
        ojson line = ojson::object();
        line["id"] = r.text(0);
        line["type"] = type;
        line["seq"] = r.integer(2).value_or(0);
        line["time_created"] = r.integer(3).value_or(0);
        line["directory"] = dir;
        line["data"] = std::move(data);
        out.lines.push_back(opencode_dump(line));
        return true;
      });
}

OpenCodeLog opencode_read_once(const Transcript& t) {
  OpenCodeLog out;
  ReadOnlyDb db;
  if (!db.open(t.path)) {
    out.error = "cannot open the OpenCode database " + t.path + ": " + db.error();
    return out;
  }
  const SchemaCheck check = check_opencode_schema(db);
  if (check.schema == OpenCodeSchema::none) {
    out.error = t.path + ": " + check.problem;
    return out;
  }
  const bool v2 = check.schema == OpenCodeSchema::v2;
  if (v2 != (t.harness == HarnessId::opencode_v2)) {
    out.error = t.path + " now holds the " + std::string(v2 ? "OpenCode 2" : "OpenCode 1") +
                " schema, not the one session " + t.id + " was listed under (" +
                std::string(harness_name(t.harness)) + ")";
    return out;
  }
  const std::string sid = opencode_session_id(t);
  std::optional<std::string> dir;
  db.query(
      v2 ? "SELECT directory FROM session_v2 WHERE id = ?" : "SELECT directory FROM session WHERE id = ?",
      {sid}, [&](const SqlRow& r) {
        dir = r.text(0);
        return false;
      });
  if (!dir) {
    out.error = "session " + sid + " is not in " + t.path;
    return out;
  }
  const bool ok = v2 ? opencode_read_v2(db, sid, *dir, out) : opencode_read_v1(db, sid, *dir, out);
  if (!ok) {
    out.lines.clear();
    out.error = "cannot read session " + sid + " from " + t.path + ": " + db.error();
  }
  return out;
}

}  // namespace

OpenCodeLog render_opencode_log(const Transcript& t) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    const auto before = opencode_db_state(t.path);
    OpenCodeLog log = opencode_read_once(t);
    if (opencode_db_state(t.path) == before) return log;
  }
  OpenCodeLog out;
  out.error = t.path + ": the database changed during the read, twice";
  return out;
}

}  // namespace csift
