import { sql } from "drizzle-orm";
import { openDatabase } from "/work/wt-lists/platform/db/client.ts";
const { db } = await openDatabase({});
await db.execute(sql`insert into accounts (account_id, username, account_domain, password_hash, name) values ('acc-1','a@x','d','x','x')`).catch(e=>console.log(e.message));
await db.execute(sql`insert into contacts (contact_id, account_id, first_name, last_name, email, contact_type, created_at, updated_at)
      select 'con-big' || lpad(i::text, 6, '0'), 'acc-1', 'First' || i, 'Last' || (100000 - i), 'c' || i || '@example.com',
        'business', timestamptz '2026-01-01' + i * interval '1 second', timestamptz '2026-01-01' + i * interval '1 second'
      from generate_series(1, 100000) as i`);
await db.execute(sql`analyze contacts`);
const t = async (label: string, q: any) => { for (let k=0;k<3;k++){ const s=performance.now(); const r:any = await db.execute(q); console.log(label, (performance.now()-s).toFixed(1), r.rows?.[0]); } };
await t("count", sql`select count(*)::int n from contacts c where c.account_id='acc-1'`);
await t("count idx", sql`select count(*)::int n from contacts c where c.account_id='acc-1' and c.created_at is not null`);
await t("first", sql`select c.contact_id from contacts c where c.account_id='acc-1' order by c.created_at, c.contact_id limit 10`);
await t("search", sql`select count(*) from contacts c where c.account_id='acc-1' and c.search_text like '%first99999%'`);
await t("explain", sql`explain analyze select count(*)::int n from contacts c where c.account_id='acc-1'`);
