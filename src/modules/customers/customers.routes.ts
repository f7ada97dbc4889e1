import { keptWhileUnchanged } from '../../http/kept-answers.js';
import type { RouteModule } from '../../http/context.js';
import { withUploadedFile } from '../../http/upload.js';
import { csvRecords } from '../../jobs/item-reader.js';
import { parse } from '../../lib/validate.js';
import { activityQuerySchema } from '../events/index.js';
import { listCustomerActivities, listCustomerActivity, listCustomers } from './customers-list.service.js';
import { customersListQuerySchema } from './customers-list.schemas.js';
import { createCustomerSchema, updateCustomerSchema } from './customers.schemas.js';
import { createCustomer, deleteCustomer, getCustomer, updateCustomer } from './customers.service.js';
import { importCustomersCsv } from './customer-csv-import.service.js';

/** Customers (the reference's Customer object, "List Customers") and their activity ("List Customer Activity"). `:ref` is an id or a source id. */
export const customersRoutes: RouteModule = (router, deps) => {
  router.post('/v1/customers', async (ctx) => {
    const body = parse(createCustomerSchema, ctx.request.body, 'body');
    ctx.body = (await createCustomer(deps, ctx.state.actor, body)).customer;
  });

  // A CUSTOMERS.IMPORT_CSV job fed from the uploaded file as it streams in (202, as the reference).
  router.post('/v1/customers/importCSV', async (ctx) => {
    ctx.body = await withUploadedFile(ctx, (file) =>
      importCustomersCsv(deps, csvRecords(file, 'customers'), ctx.state.actor),
    );
    ctx.status = 202;
  });

  router.get('/v1/customers', async (ctx) => {
    ctx.body = await listCustomers(deps, parse(customersListQuerySchema, ctx.query, 'query'));
  });

  router.get('/v1/customers/:ref', keptWhileUnchanged(deps.engine), async (ctx) => {
    ctx.body = await getCustomer(deps, ctx.params.ref as string);
  });

  router.put('/v1/customers/:ref', async (ctx) => {
    const body = parse(updateCustomerSchema, ctx.request.body, 'body');
    ctx.body = await updateCustomer(deps, ctx.state.actor, ctx.params.ref as string, body);
  });

  router.delete('/v1/customers/:ref', async (ctx) => {
    await deleteCustomer(deps, ctx.state.actor, ctx.params.ref as string);
    ctx.status = 204;
  });

  router.get('/v1/customers/:ref/activity', async (ctx) => {
    ctx.body = await listCustomerActivity(
      deps,
      ctx.params.ref as string,
      parse(activityQuerySchema, ctx.query, 'query'),
    );
  });

  // The deprecated form (the SDK's customers.listActivities): the same page, with `total`.
  router.get('/v1/customers/:ref/activities', async (ctx) => {
    ctx.body = await listCustomerActivities(
      deps,
      ctx.params.ref as string,
      parse(activityQuerySchema, ctx.query, 'query'),
    );
  });
};
