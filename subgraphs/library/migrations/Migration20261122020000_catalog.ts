import { Migration } from '@mikro-orm/migrations';

/**
 * The library model: books, their parts and pages, plus what BM25 needs beside the GIN index:
 * per-page term counts and per-book document frequencies (summed per term at query time).
 */
export class Migration20261122020000_catalog extends Migration {
  static readonly migrationName = 'Migration20261122020000_catalog';

  override up(): void {
    this.addSql(`create table "library"."book" (
      "id" text primary key,
      "title" text not null,
      "authors" text[] not null default '{}',
      "category" text not null default '',
      "source_format" text not null,
      "source_uri" text null,
      "source_meta" jsonb not null default '{}',
      "volumes" integer null,
      "part_count" integer not null default 0,
      "page_count" integer not null default 0,
      "term_total" bigint not null default 0,
      "title_key" text not null default '',
      "authors_key" text not null default '',
      "imported_at" timestamptz not null default now()
    );`);
    this.addSql('create index "book_category_index" on "library"."book" ("category");');
    this.addSql(`create table "library"."part" (
      "id" text primary key,
      "book_id" text not null references "library"."book" ("id") on delete cascade,
      "index" integer not null,
      "depth" integer not null,
      "title" text not null,
      "parent_index" integer null,
      "page" integer null,
      unique ("book_id", "index")
    );`);
    this.addSql(`create table "library"."page" (
      "id" text primary key,
      "book_id" text not null references "library"."book" ("id") on delete cascade,
      "page" integer not null,
      "volume" text null,
      "volume_page" integer null,
      "label" text null,
      "part_index" integer null,
      "part" text not null default '',
      "text" text not null,
      "markup" text null,
      "chars" integer not null,
      "terms" tsvector not null,
      "term_count" integer not null,
      unique ("book_id", "page")
    );`);
    this.addSql('create index "page_terms_index" on "library"."page" using gin ("terms");');
    this.addSql(`create table "library"."term_stat" (
      "term" text not null,
      "book_id" text not null references "library"."book" ("id") on delete cascade,
      "df" integer not null,
      primary key ("term", "book_id")
    );`);
    this.addSql('create index "term_stat_book_index" on "library"."term_stat" ("book_id");');
  }

  override down(): void {
    this.addSql('drop table if exists "library"."term_stat", "library"."page", "library"."part", "library"."book" cascade;');
  }
}
