import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import request from 'supertest';
import { createTestUser, TestUser } from '../../support/api-test-app';
import {
  ExportHarness,
  idFromLocation,
  localPath,
  startExportHarness,
  waitForStatus,
} from '../exports/export-harness';
import { IMAGE_SCOPES, makeImage, uploadImage } from '../images/images-harness';

/**
 * Files that vanish from storage under the API's feet (a delete racing a download, an operator's
 * cleanup): the download answers 404 JSON or the whole file, and the process stays up to serve the next.
 */
let harness: ExportHarness;
let user: TestUser;
beforeAll(async () => {
  harness = await startExportHarness();
  user = await createTestUser(harness.api.deps, `${IMAGE_SCOPES} user:rw budgets:r`);
});
afterAll(() => harness.close());

const app = () => harness.api.app;
const prefixOf = async (id: string) =>
  (await harness.api.deps.repos.images.findById(harness.api.deps.store.read({ userId: user.userId }), id))!
    .storagePrefix;

describe('stored files that vanish', () => {
  it('when an image file is gone from storage, then its download is a 404 JSON error and the API serves on', async () => {
    const id = await uploadImage(harness.api, user);
    await rm(join(harness.storageDir, await prefixOf(id)), { recursive: true });
    const answer = await request(app()).get(`/images/${id}/full.jpg`).set('Authorization', user.auth);
    expect(answer.status).toBe(404);
    expect(answer.headers['content-type']).toMatch(/json/);
    expect(answer.body.error_id).toBe('error.object.not_found');
    expect(answer.headers['cache-control'] ?? '').not.toContain('immutable');
    const other = await uploadImage(harness.api, user);
    await request(app()).get(`/images/${other}/full.jpg`).set('Authorization', user.auth).expect(200);
  });

  it('when an image is deleted while it is being downloaded, then each download is whole or a 404 (20 races)', async () => {
    const bytes = await makeImage('jpeg', 1200, 900);
    const outcomes = new Set<number>();
    for (let round = 0; round < 20; round += 1) {
      const id = await uploadImage(harness.api, user, bytes);
      const [download] = await Promise.all([
        request(app()).get(`/images/${id}/full.jpg`).set('Authorization', user.auth).buffer(true),
        new Promise((resolve) => setTimeout(resolve, round % 4)).then(() =>
          request(app()).delete(`/images/${id}`).set('Authorization', user.auth).expect(204),
        ),
      ]);
      outcomes.add(download.status);
      if (download.status === 200) {
        expect(download.body.length).toBe(Number(download.headers['content-length']));
      } else {
        expect(download.status).toBe(404);
        expect(download.body.error_id).toBe('error.object.not_found');
      }
    }
    expect([...outcomes].every((status) => status === 200 || status === 404)).toBe(true);
  });

  it('when an export file is gone from storage, then its link answers 404 JSON', async () => {
    const answer = await request(app())
      .post('/exports')
      .set('Authorization', user.auth)
      .send({
        type: 'export',
        resources: ['expenses'],
        formats: ['csv'],
        from: '2026-04-01',
        to: '2026-04-30',
      })
      .expect(201);
    const id = idFromLocation(answer.headers.location);
    const sent = await waitForStatus(harness.api, user, id, 'sent');
    const link = localPath(sent.data.path);
    await request(app()).get(link).expect(200);
    await rm(join(harness.storageDir, 'exports', user.userId), { recursive: true });
    const gone = await request(app()).get(link);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({
      error_id: 'error.object.not_found',
      description: 'This export file no longer exists.',
    });
  });
});
