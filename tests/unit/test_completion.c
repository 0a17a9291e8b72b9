/* test_completion.c — the rule that completes a lesson (store.h): each of
 * its conditions alone keeps a lesson from completing, and the minimum time
 * follows the lesson's length up to its cap.  Expected values are worked
 * out here by hand. */
#include <criterion/criterion.h>

#include "cudalab/store.h"

/* A lesson of 100 lines on screens of 20 rows (5 screens), 3 quizzes, read
 * by the rule's letter: everything met, with nothing to spare. */
static struct lesson_facts met(void)
{
	return (struct lesson_facts){
		.total_lines = 100, .viewed_lines = 80, .screen_rows = 20,
		.quizzes = 3, .quizzes_answered = 3,
		.seconds = 100, .pace = 20, .at_end = true,
	};
}

Test(completion, minimum_time_follows_length)
{
	cr_expect_eq(lesson_seconds_needed(100, 20, 20), 100); /* 5 screens */
	cr_expect_eq(lesson_seconds_needed(101, 20, 20), 120); /* a 6th, partly */
	cr_expect_eq(lesson_seconds_needed(1, 20, 20), 20);
	cr_expect_eq(lesson_seconds_needed(100, 20, 7), 35);
	cr_expect_eq(lesson_seconds_needed(0, 20, 20), 0);
	cr_expect_eq(lesson_seconds_needed(100, 20, 0), 0);
	cr_expect_eq(lesson_seconds_needed(3, 0, 20), 60); /* no rows: one line a screen */
	/* capped: 500 screens would be 10000 s */
	cr_expect_eq(lesson_seconds_needed(10000, 20, 20), 600);
	cr_expect_eq(lesson_seconds_needed(2000000000, 1, 600), 600);
}

Test(completion, percent_rounds_down)
{
	cr_expect_eq(lesson_percent(79, 100), 79);
	cr_expect_eq(lesson_percent(4, 5), 80);
	cr_expect_eq(lesson_percent(2, 3), 66);
	cr_expect_eq(lesson_percent(0, 7), 0);
	cr_expect_eq(lesson_percent(7, 7), 100);
	cr_expect_eq(lesson_percent(9, 7), 100);
	cr_expect_eq(lesson_percent(0, 0), 100);
	cr_expect_eq(lesson_percent(2000000000, 2000000001), 99);
}

Test(completion, all_conditions_met)
{
	struct lesson_facts f = met();

	cr_expect(lesson_may_complete(&f));
	f.pace = 0;
	f.seconds = 0;
	cr_expect(lesson_may_complete(&f), "pace 0 asks no time");
	f = met();
	f.quizzes = f.quizzes_answered = 0;
	cr_expect(lesson_may_complete(&f), "a lesson without quizzes");
}

Test(completion, each_condition_alone_keeps_it_open)
{
	struct lesson_facts f = met();

	f.at_end = false;
	cr_expect(!lesson_may_complete(&f), "not at the end");
	f = met();
	f.viewed_lines = 79;
	cr_expect(!lesson_may_complete(&f), "79%% viewed");
	f = met();
	f.quizzes_answered = 2;
	cr_expect(!lesson_may_complete(&f), "a quiz unanswered");
	f = met();
	f.seconds = 99;
	cr_expect(!lesson_may_complete(&f), "a second short");
}

Test(completion, jumping_to_the_end_is_not_reading)
{
	/* what G on a new lesson leaves: its last screen viewed, no time */
	struct lesson_facts f = {
		.total_lines = 300, .viewed_lines = 20, .screen_rows = 22,
		.quizzes = 0, .seconds = 1, .pace = LESSON_PACE_DEFAULT, .at_end = true,
	};

	cr_expect(!lesson_may_complete(&f));
	f.viewed_lines = 300;
	cr_expect(!lesson_may_complete(&f), "viewed, but in one second");
	f.seconds = 14 * 20; /* 14 screens of 22 rows at 20 s */
	cr_expect(lesson_may_complete(&f));
}
