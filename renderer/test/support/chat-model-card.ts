/** A `/models` card of a ready chat model, as the playground tests' fake gateway lists it. */
export const chatModelCard = (id: string) => ({
  id,
  object: 'model',
  created: 0,
  owned_by: 'me',
  capabilities: ['chat'],
  aliases: [],
  archived: false,
  provider: 'up',
  state: 'ready',
});

/** The `/models` answer listing ready chat models. */
export const chatModelList = (...ids: string[]) => ({ object: 'list', data: ids.map(chatModelCard) });
