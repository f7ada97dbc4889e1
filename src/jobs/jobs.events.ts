import { EventEmitter } from 'node:events';

/** In-process signal: a job was enqueued (after its transaction committed). Runners listen. */
export const jobEvents = new EventEmitter();
jobEvents.setMaxListeners(0);

export const notifyJobEnqueued = (): void => {
  jobEvents.emit('enqueued');
};
