// Prompts for the questions people ask most about a session, without MCP: each names its arguments and
// renders a user message that tells the model which csift tool calls answer the question. server/ serves
// them as prompts/list and prompts/get.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "core/base/envelope.h"

namespace csift {

struct PromptArgument {
  std::string name;
  std::string description;
  bool required = false;
};

struct SessionPrompt {
  std::string name;
  std::string title;
  std::string description;
  std::vector<PromptArgument> arguments;
};

const std::vector<SessionPrompt>& session_prompts();
const SessionPrompt* find_session_prompt(std::string_view name);

// The user message for `prompt` with `arguments` (string values); `error` names a missing or invalid one.
struct PromptText {
  std::string text;
  std::string error;
};
PromptText render_session_prompt(const SessionPrompt& prompt, const json& arguments);

}  // namespace csift
