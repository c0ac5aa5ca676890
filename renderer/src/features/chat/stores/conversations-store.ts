import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { registerScopedStore, scopedLocalStorage } from '../../../lib/scoped-local-storage';
import type { ChatMessage, ChatSettings, Conversation } from '../chat-types';

export const DEFAULT_SETTINGS: ChatSettings = {
  model: '',
  system: '',
  temperature: 0.7,
  maxTokens: 1024,
  topP: 1,
  stop: '',
  seed: null,
  presencePenalty: null,
  frequencyPenalty: null,
  responseFormat: 'text',
};

const newId = (prefix: string) => `${prefix}_${crypto.randomUUID().slice(0, 8)}`;

const NEW_CHAT_TITLE = 'New chat';

export function createConversation(settings: ChatSettings = DEFAULT_SETTINGS): Conversation {
  return { id: newId('conv'), title: NEW_CHAT_TITLE, createdAt: Date.now(), messages: [], settings: { ...settings } };
}

export function createMessage(role: ChatMessage['role'], content: string, images: string[] = []): ChatMessage {
  return { id: newId('msg'), role, content, images };
}

interface ConversationsState {
  conversations: Conversation[];
  activeId: string | null;
  create(): string;
  /** Adds a conversation made elsewhere (a logged request opened in the playground) and selects it. */
  add(conversation: Conversation): void;
  select(id: string): void;
  remove(id: string): void;
  /** A title of the user's choosing; later messages no longer change it. */
  rename(id: string, title: string): void;
  updateSettings(id: string, patch: Partial<ChatSettings>): void;
  /** Replaces a conversation's messages (send, regenerate and edit all end up here). */
  setMessages(id: string, messages: ChatMessage[]): void;
  updateMessage(id: string, messageId: string, patch: Partial<ChatMessage>): void;
}

const titleFrom = (messages: ChatMessage[]) => {
  const first = messages.find((m) => m.role === 'user' && m.content.trim());
  return first ? first.content.trim().slice(0, 48) : NEW_CHAT_TITLE;
};

/** The title follows the first user message until the user renames the conversation (or it came titled). */
const nextTitle = (conversation: Conversation, messages: ChatMessage[]) =>
  conversation.title === titleFrom(conversation.messages) ? titleFrom(messages) : conversation.title;

/** Chat conversations, kept in localStorage across restarts, one history per API key. */
export const useConversationsStore = create<ConversationsState>()(
  persist(
    (set, get) => {
      const patch = (id: string, fn: (c: Conversation) => Conversation) =>
        set({ conversations: get().conversations.map((c) => (c.id === id ? fn(c) : c)) });
      return {
        conversations: [],
        activeId: null,
        create: () => {
          const active = get().conversations.find((c) => c.id === get().activeId);
          const conversation = createConversation(active?.settings);
          set({ conversations: [conversation, ...get().conversations], activeId: conversation.id });
          return conversation.id;
        },
        add: (conversation) =>
          set({ conversations: [conversation, ...get().conversations], activeId: conversation.id }),
        select: (id) => set({ activeId: id }),
        remove: (id) => {
          const rest = get().conversations.filter((c) => c.id !== id);
          set({ conversations: rest, activeId: get().activeId === id ? (rest[0]?.id ?? null) : get().activeId });
        },
        rename: (id, title) => patch(id, (c) => ({ ...c, title: title.trim() || c.title })),
        updateSettings: (id, settings) => patch(id, (c) => ({ ...c, settings: { ...c.settings, ...settings } })),
        setMessages: (id, messages) => patch(id, (c) => ({ ...c, messages, title: nextTitle(c, messages) })),
        updateMessage: (id, messageId, change) =>
          patch(id, (c) => ({ ...c, messages: c.messages.map((m) => (m.id === messageId ? { ...m, ...change } : m)) })),
      };
    },
    { name: 'switchyard.chat', storage: scopedLocalStorage, version: 1, skipHydration: true },
  ),
);

// Before histories were per key, one entry was shared by every key of the browser: it has no owner to give it to.
localStorage.removeItem('switchyard.chat');
registerScopedStore({
  reset: () => useConversationsStore.setState({ conversations: [], activeId: null }),
  rehydrate: () => useConversationsStore.persist.rehydrate(),
});
