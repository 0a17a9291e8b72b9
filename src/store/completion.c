/* completion.c — the rule that says when a lesson is complete (store.h).
 * Reaching the end alone proves nothing: the end is one key away.  The rule
 * asks for what reading leaves behind instead: most of the lesson on screen,
 * every quiz answered, and time spent in proportion to the lesson's length,
 * capped so a long lesson never asks for more than a sitting. */
#include "cudalab/store.h"

int64_t lesson_seconds_needed(int total_lines, int screen_rows, int pace)
{
	int64_t screens, need;

	if (total_lines <= 0 || pace <= 0)
		return 0;
	if (screen_rows < 1)
		screen_rows = 1;
	screens = ((int64_t)total_lines + screen_rows - 1) / screen_rows;
	need = screens * pace;
	return need < LESSON_MAX_SECONDS ? need : LESSON_MAX_SECONDS;
}

int lesson_percent(int part, int whole)
{
	if (whole <= 0)
		return 100;
	if (part <= 0)
		return 0;
	if (part >= whole)
		return 100;
	return (int)((int64_t)part * 100 / whole);
}

bool lesson_may_complete(const struct lesson_facts *f)
{
	if (!f->at_end)
		return false;
	if (lesson_percent(f->viewed_lines, f->total_lines) < LESSON_VIEWED_PERCENT)
		return false;
	if (f->quizzes_answered < f->quizzes)
		return false;
	return f->seconds >= lesson_seconds_needed(f->total_lines, f->screen_rows, f->pace);
}
