export function createOpenAIStandIn() { throw new Error('todo'); }
