# Sourced by run.sh and campaign.sh: each target's dictionary and libFuzzer options, one table for both runs.
# Needs $here (tests/fuzz) and $transcript_dict (json.dict and transcript.dict joined).
dict_of() {
  case $1 in
    json | scrubber) echo "$here/json.dict" ;;
    http_head | http_chunked) echo "$here/http.dict" ;;
    regex | counted_repeat | shell_words | collect_policy) echo "" ;;
    *) echo "$transcript_dict" ;;
  esac
}
# libFuzzer options of the reader targets: the inputs reach ~15,000 features, and with the default frequency
# threshold (255) libFuzzer kept every one in its list of rare features, scanned for each feature of each
# execution, until one was seen 255 times: 16 prunes that list early (1,500 executions of claude_code on its
# seeds: 9.4 CPU seconds before, 4.1 after; codex 11.3 and 7.2; gemini_cli 7.7 and 6.4; the same coverage).
opts_of() {
  case $1 in
    claude_code | codex | copilot | cursor | gemini_cli | opencode | image) echo "-entropic_feature_frequency_threshold=16" ;;
    *) echo "" ;;
  esac
}
