export function createGoogleStandIn() { throw new Error('todo'); }
