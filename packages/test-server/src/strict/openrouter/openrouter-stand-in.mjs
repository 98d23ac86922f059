export function createOpenRouterStandIn() { throw new Error('todo'); }
