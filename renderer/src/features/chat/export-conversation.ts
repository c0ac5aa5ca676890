import type { Conversation, ToolActivity } from './chat-types';

/** A file name from the conversation title: letters, digits and dashes only. */
export const conversationFileName = (conversation: Conversation, extension: 'md' | 'json') =>
  `${
    conversation.title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'conversation'
  }.${extension}`;

/** Text in a code fence longer than any run of backticks in it, so a tool's output cannot close it. */
function fenced(text: string): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}\n${fence}`;
}

function toolLines(entry: ToolActivity): string[] {
  if (entry.kind === 'list_failed') return [`_Could not list the tools of \`${entry.server}\`: ${entry.error}_`];
  const duration = entry.durationMs !== undefined ? `, ${Math.round(entry.durationMs)} ms` : '';
  return [
    `_Tool call \`${entry.server} · ${entry.name}\` (${entry.state.replace('_', ' ')}${duration})_`,
    '',
    fenced(entry.arguments),
    ...(entry.output !== undefined ? ['', 'Output:', '', fenced(entry.output)] : []),
    ...(entry.error ? ['', 'Error:', '', fenced(entry.error)] : []),
    '',
  ];
}

/** The conversation as readable Markdown: settings that shape the replies, then each turn. */
export function conversationToMarkdown(conversation: Conversation): string {
  const { settings } = conversation;
  const lines = [
    `# ${conversation.title}`,
    '',
    `- Model: \`${settings.model}\``,
    `- Temperature: ${settings.temperature}`,
  ];
  if (settings.system.trim()) lines.push('', '## System', '', settings.system.trim());
  for (const message of conversation.messages) {
    const heading = message.role === 'user' ? 'User' : `Assistant${message.model ? ` (${message.model})` : ''}`;
    lines.push('', `## ${heading}`, '');
    for (const entry of message.tools ?? []) lines.push(...toolLines(entry));
    if (message.content) lines.push(message.content);
    if (message.images.length)
      lines.push(`_${message.images.length} image${message.images.length === 1 ? '' : 's'} attached_`);
    if (message.status === 'error') lines.push(`_Failed: ${message.error ?? 'unknown error'}_`);
    if (message.status === 'stopped') lines.push('_Stopped_');
  }
  return `${lines.join('\n')}\n`;
}

/** Everything needed to look at or re-create the conversation, images included. */
export const conversationToJson = (conversation: Conversation): string =>
  JSON.stringify(
    {
      title: conversation.title,
      createdAt: new Date(conversation.createdAt).toISOString(),
      settings: conversation.settings,
      messages: conversation.messages,
    },
    null,
    2,
  );
