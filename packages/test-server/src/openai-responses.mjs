// openai wire-format helpers (issue C): filled in with the provider.
export {};
