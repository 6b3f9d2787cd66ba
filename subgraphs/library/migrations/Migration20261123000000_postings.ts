import { Migration } from '@mikro-orm/migrations';
import { segmentRowsSql } from '../search/postings.js';

/**
 * Posting lists for exact top-k retrieval (docs/adr/0010-exact-top-k-retrieval.md), written in
 * segments: per term, band of term frequencies and segment, the pages shortest first with their
 * books, lengths and frequencies. The GIN index on page terms is no longer read and goes. Books
 * already stored get their postings in one segment.
 */
export class Migration20261123000000_postings extends Migration {
  static readonly migrationName = 'Migration20261123000000_postings';

  override up(): void {
    this.addSql(`create table "library"."posting_segment" (
      "id" bigserial primary key,
      "books" text[] not null,
      "dead" integer[] not null default '{}',
      "created_at" timestamptz not null default now()
    );`);
    this.addSql(`create table "library"."posting" (
      "segment_id" bigint not null references "library"."posting_segment" ("id") on delete cascade,
      "term" text not null,
      "band" smallint not null,
      "min_dl" integer not null,
      "dir" integer[] not null,
      "refs" bytea not null,
      "pages" bytea not null,
      "dls" bytea not null,
      "tfs" bytea not null,
      primary key ("term", "band", "segment_id")
    );`);
    this.addSql('create index "posting_segment_index" on "library"."posting" ("segment_id");');
    // Uncompressed out of line, so `substring` reads only the slice it returns.
    for (const column of ['refs', 'pages', 'dls', 'tfs']) {
      this.addSql(`alter table "library"."posting" alter column "${column}" set storage external;`);
    }
    this.addSql(`insert into "library"."posting_segment" ("books")
      select array_agg("id" order by "id") from "library"."book" having count(*) > 0;`);
    this.addSql(segmentRowsSql().replace('where s.id = ?', 'where true'));
    this.addSql('drop index if exists "library"."page_terms_index";');
  }

  override down(): void {
    this.addSql('create index "page_terms_index" on "library"."page" using gin ("terms");');
    this.addSql('drop table if exists "library"."posting", "library"."posting_segment";');
  }
}
