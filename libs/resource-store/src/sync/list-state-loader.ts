import DataLoader from 'dataloader';
import type { DataSource } from 'typeorm';
import { type RawListState, readListStates } from './change-sequence';

/** A user id as Postgres's bigint reads it: any other id gets its own error, never the whole batch's. */
const USER_ID = /^[0-9]{1,19}$/;

/**
 * The list states of concurrent requests read in one statement (DataLoader): every `load` made while the
 * event loop handles one turn of I/O (the gate's pipelined Redis replies wake several requests at once) joins
 * one `readListStates`, sent when that turn ends (`setImmediate`). Why: the unchanged-page fast path's only
 * Postgres read was 40% of that request's API CPU (docs/bench.md, the ablation), most of it per statement
 * (the pool, the protocol, the socket write), not per row. Nothing is cached (`cache: false`): each load is
 * sent after its request arrived, so it sees every write committed before that, as a read of its own would
 * (read-your-writes, across API processes too).
 */
export function listStateLoader(source: DataSource): DataLoader<string, RawListState> {
  return new DataLoader<string, RawListState>(
    async (userIds) => {
      const valid = userIds.filter((userId) => USER_ID.test(userId));
      const states = valid.length ? await readListStates(source, valid) : [];
      const byId = new Map(valid.map((userId, index) => [userId, states[index]]));
      return userIds.map((userId) => byId.get(userId) ?? new Error(`not a user id: ${userId}`));
    },
    { cache: false, maxBatchSize: 256, batchScheduleFn: (dispatch) => setImmediate(dispatch) },
  );
}
