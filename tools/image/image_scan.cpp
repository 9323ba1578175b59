#include "tools/image/image_scan.h"

#include <map>
#include <tuple>

#include "core/base/envelope.h"
#include "core/harness/claude_code/image_handles.h"
#include "core/record/transcript_reader.h"
#include "core/record/turns.h"
#include "core/scan/substring_finder.h"

namespace csift {
namespace {

bool mentions_image(std::string_view line) {
  static const SubstringFinder kImage({"\"image\""}, false);
  return kImage.contains(line);
}

// The record's typed text near its first paste marker, on one line.
std::string marker_context(const Record& r) {
  std::string text = r.message.content_is_string ? r.message.content_string : std::string();
  for (const Block& b : r.message.blocks) {
    if (b.kind == BlockKind::text) text += (text.empty() ? "" : " ") + b.text;
  }
  const size_t at = text.find("[Image #");
  const size_t from = at == std::string::npos || at < 40 ? 0 : at - 40;
  return excerpt(one_line(std::string_view(text).substr(from)), 120);
}

}  // namespace

TranscriptImages scan_images(const Transcript& t, size_t index, const CancelToken* cancel) {
  const TranscriptReader& reader = reader_for(t);
  ReadOptions options;
  if (const RawLineProbes* probes = reader.raw_probes()) {
    options.want = [probes](std::string_view line) {
      return mentions_image(line) || probes->may_open_turn(line);
    };
  }
  options.cancel = cancel;
  ReadResult read = read_transcript(t, options);
  TranscriptImages out;
  out.skipped_lines = read.skipped_lines;
  out.error = read.error;
  const TurnAssignment turns = assign_turns(read.records, turn_rule_of(t));
  out.turn_count = turns.turn_count;
  for (size_t i = 0; i < read.records.size(); ++i) {
    const Record& r = read.records[i];
    const std::vector<RecordImage> images = record_images(r);
    if (images.empty()) continue;
    const std::string context = marker_context(r);
    for (const RecordImage& img : images) {
      ImageOccurrence o;
      o.transcript = index;
      o.line = r.line;
      o.record_offset = r.offset;
      o.record_length = r.length;
      o.text_repaired = r.text_repaired;
      o.uuid = r.uuid;
      o.timestamp = r.timestamp;
      o.turn_index = turns.turn_of[i];
      o.ordinal = img.ordinal;
      o.handle = img.handle;
      o.in_tool_result = img.in_tool_result;
      o.ref = *img.ref;
      o.context = context;
      out.images.push_back(std::move(o));
    }
  }
  return out;
}

bool same_image_content(const ImageOccurrence& a, const ImageOccurrence& b) {
  if (a.ref.data_length > 0 || b.ref.data_length > 0) {
    return a.ref.data_length == b.ref.data_length && a.ref.data_hash == b.ref.data_hash;
  }
  return a.ref.url == b.ref.url && !a.ref.url.empty();
}

std::vector<ImageOccurrence> dedup_by_content(const std::vector<ImageOccurrence>& all) {
  // Key: owning transcript, payload length and hash (or url); the latest occurrence wins.
  using Key = std::tuple<size_t, uint64_t, uint64_t, std::string>;
  std::map<Key, size_t> latest;
  std::vector<size_t> count(all.size(), 0);
  for (size_t i = 0; i < all.size(); ++i) {
    const ImageOccurrence& o = all[i];
    const bool keyed = o.ref.data_length > 0 || !o.ref.url.empty();
    const Key key{o.transcript, o.ref.data_length, o.ref.data_hash, keyed ? o.ref.url : std::to_string(i)};
    latest[key] = i;
  }
  for (size_t i = 0; i < all.size(); ++i) {
    const ImageOccurrence& o = all[i];
    const bool keyed = o.ref.data_length > 0 || !o.ref.url.empty();
    ++count[latest[Key{o.transcript, o.ref.data_length, o.ref.data_hash,
                       keyed ? o.ref.url : std::to_string(i)}]];
  }
  std::vector<ImageOccurrence> out;
  for (size_t i = 0; i < all.size(); ++i) {
    if (count[i] == 0) continue;
    out.push_back(all[i]);
    out.back().occurrences = count[i];
  }
  return out;
}

}  // namespace csift
