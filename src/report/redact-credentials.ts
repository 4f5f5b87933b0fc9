// Moved to src/secrets/ (issue 23), which src/api and src/report both use; kept so imports stay short to merge.
export * from '../secrets/credentials.js';
