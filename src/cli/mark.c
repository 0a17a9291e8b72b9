/* mark.c — `cudalab mark ITEM (done|reading|unread)`. */
#include "cudalab/cli.h"

#include "cudalab/content.h"
#include "cudalab/store.h"

int cli_mark(struct cli *c, int argc, char **argv)
{
	enum item_status status;
	const struct reading_item *item;
	struct store *st;

	if (argc != 3)
		return cli_usage_error(c, "mark: expected ITEM and a status (done, reading or unread)");
	if (store_item_status_parse(argv[2], &status) != 0)
		return cli_usage_error(c, "mark: unknown status '%s' (expected done, reading or unread)",
				       argv[2]);
	item = catalog_item(cli_catalog(c), argv[1]);
	if (!item)
		return cli_unknown_id(c, "mark", "reading item", argv[1], CAT_READING, "reading");
	st = cli_store(c);
	if (!st)
		return EXIT_USAGE;
	if (store_item_set(st, item->id, status) != 0)
		return cli_error(c, "mark: %s", store_errmsg(st));
	printf("%s: %s\n", item->id, store_item_status_name(status));
	return EXIT_OK;
}
