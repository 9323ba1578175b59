#include "core/record/transcript_reader.h"

namespace csift {

namespace {

class CollectingSink final : public RecordSink {
 public:
  explicit CollectingSink(ReadResult& out) : out_(out) {}
  bool record(Record&& r) override {
    out_.records.push_back(std::move(r));
    return true;
  }
  void skipped(SkippedLine&& s) override { out_.skipped.push_back(std::move(s)); }
  void declined(const LineRef& ref) override { out_.declined.push_back(ref); }

 private:
  ReadResult& out_;
};

class FunctionSink final : public RecordSink {
 public:
  explicit FunctionSink(const std::function<bool(Record&&)>& fn) : fn_(fn) {}
  bool record(Record&& r) override { return fn_(std::move(r)); }

 private:
  const std::function<bool(Record&&)>& fn_;
};

}  // namespace

SkimResult TranscriptReader::skim(const Transcript&, const std::function<bool(std::string_view)>&,
                                  const std::function<double(std::string_view)>&, const CancelToken*) const {
  SkimResult out;
  out.may_match = true;
  return out;
}

ReadResult read_transcript(const Transcript& t, const ReadOptions& opts) {
  ReadResult out;
  CollectingSink sink(out);
  static_cast<ReadStats&>(out) = reader_for(t).read(t, opts, sink);
  return out;
}

ReadStats for_each_record(const Transcript& t, const ReadOptions& opts,
                          const std::function<bool(Record&&)>& fn) {
  FunctionSink sink(fn);
  return reader_for(t).read(t, opts, sink);
}

}  // namespace csift
