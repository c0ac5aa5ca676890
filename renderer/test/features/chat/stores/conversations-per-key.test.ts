import { beforeEach, describe, expect, it } from 'vitest';
import { useConversationsStore, createMessage } from '../../../../src/features/chat/stores/conversations-store';
import { useSessionStore } from '../../../../src/lib/session-store';

const conversations = () => useConversationsStore.getState().conversations;

beforeEach(() => {
  useSessionStore.getState().signOut();
  localStorage.clear();
});

describe('chat history per key', () => {
  it("does not show one key's conversations to the next key, and gives them back to their key", async () => {
    useSessionStore.getState().signIn('key-of-alice');
    const id = useConversationsStore.getState().create();
    useConversationsStore.getState().setMessages(id, [createMessage('user', 'alice secret plans')]);
    expect(conversations()).toHaveLength(1);

    useSessionStore.getState().signOut();
    expect(conversations()).toEqual([]);
    expect(useConversationsStore.getState().activeId).toBeNull();

    useSessionStore.getState().signIn('key-of-bob');
    await useConversationsStore.persist.rehydrate();
    expect(conversations()).toEqual([]);
    useConversationsStore.getState().create();
    expect(conversations()).toHaveLength(1);

    useSessionStore.getState().signOut();
    useSessionStore.getState().signIn('key-of-alice');
    await useConversationsStore.persist.rehydrate();
    expect(conversations().map((c) => c.title)).toEqual(['alice secret plans']);
    // Nothing is stored under a name any key shares, and no entry holds the key itself.
    const names = Object.keys(localStorage);
    expect(names.filter((name) => name.startsWith('switchyard.chat'))).toHaveLength(2);
    expect(names.join(' ')).not.toContain('alice');
    expect(localStorage.getItem('switchyard.chat')).toBeNull();
  });

  it('keeps the reason a session ended across a reload of the tab, and forgets it at the next sign-in', async () => {
    // A reload: the tab's sessionStorage as it was, read into a store that starts empty.
    const reload = async (stored: string | null) => {
      useSessionStore.setState({ apiKey: null, signOutReason: null });
      if (stored !== null) sessionStorage.setItem('switchyard.session', stored);
      await useSessionStore.persist.rehydrate();
    };
    useSessionStore.getState().signIn('key-of-alice');
    useSessionStore.getState().signOut('You were signed out: the API key was revoked.');
    await reload(sessionStorage.getItem('switchyard.session'));
    expect(useSessionStore.getState().signOutReason).toBe('You were signed out: the API key was revoked.');
    expect(useSessionStore.getState().apiKey).toBeNull();
    useSessionStore.getState().signIn('key-of-bob');
    await reload(sessionStorage.getItem('switchyard.session'));
    expect(useSessionStore.getState().signOutReason).toBeNull();
    expect(useSessionStore.getState().apiKey).toBe('key-of-bob');
  });

  it('tells the sign-in page why a session ended when the user did not ask', () => {
    useSessionStore.getState().signIn('k');
    useSessionStore.getState().signOut('You were signed out: The API key is unknown or revoked.');
    expect(useSessionStore.getState().signOutReason).toMatch(/revoked/);
    useSessionStore.getState().signIn('k2');
    expect(useSessionStore.getState().signOutReason).toBeNull();
  });
});
