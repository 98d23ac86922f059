export function createOllamaStandIn() { throw new Error('todo'); }
