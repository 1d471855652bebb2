"""Unit tests of student_t.py (run by bench/test/harness-published-stats.test.ts, i.e. bench's npm test):
python3 -m unittest discover -s bench/published -p 'test_student_t.py'"""
import math
import unittest

from student_t import mean_ci95, t95, t_two_sided_p


class T95(unittest.TestCase):
    def test_known_quantiles(self):
        # printed two-sided 95 % tables (e.g. Abramowitz & Stegun table 26.10)
        known = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228,
                 15: 2.131, 20: 2.086, 29: 2.045, 30: 2.042, 40: 2.021, 60: 2.000, 120: 1.980}
        for df, t in known.items():
            self.assertEqual(t95(df), t, f'df {df}')

    def test_normal_limit(self):
        self.assertEqual(t95(100000), 1.960)

    def test_quantile_solves_the_p_value(self):
        for df in range(1, 200):
            t = t95(df)
            # rounded to 3 decimals: p at t +/- 0.0005 brackets 0.05
            self.assertGreater(t_two_sided_p(t - 0.0005, df), 0.05, f'df {df}')
            self.assertLess(t_two_sided_p(t + 0.0005, df), 0.05, f'df {df}')

    def test_decreasing_in_df(self):
        self.assertTrue(all(t95(df) >= t95(df + 1) for df in range(1, 300)))

    def test_bad_df(self):
        for df in (0, -1, 2.5, None):
            with self.assertRaises(ValueError):
                t95(df)


class MeanCi95(unittest.TestCase):
    def test_half_width(self):
        m, h = mean_ci95([1, 2, 3, 4, 5])  # sd = sqrt(2.5), n = 5, t(4) = 2.776
        self.assertEqual(m, 3)
        self.assertAlmostEqual(h, 2.776 * math.sqrt(2.5) / math.sqrt(5), places=12)

    def test_eight_pairs_use_t7(self):
        # the feedback-path-queue case: 8 paired differences need t(7) = 2.365, not 2.0
        d = [1.0, -2.0, 3.5, 0.5, -1.0, 2.0, 4.0, -0.5]
        m, h = mean_ci95(d)
        sd = math.sqrt(sum((x - m) ** 2 for x in d) / 7)
        self.assertAlmostEqual(h, 2.365 * sd / math.sqrt(8), places=12)

    def test_as_stats_ts_is_float_sum_over_n(self):
        xs = [0.1, 0.2, 0.3, 0.4, 0.45, 0.5]
        m, h = mean_ci95(xs, as_stats_ts=True)
        self.assertEqual(m, sum(xs) / 6)
        sd = math.sqrt(sum((x - m) ** 2 for x in xs) / 5)
        self.assertEqual(h, 2.571 * sd / math.sqrt(6))
        self.assertAlmostEqual(mean_ci95(xs)[1], h, places=12)

    def test_one_value_has_no_interval(self):
        for as_stats_ts in (False, True):
            m, h = mean_ci95([4.2], as_stats_ts=as_stats_ts)
            self.assertEqual(m, 4.2)
            self.assertTrue(math.isnan(h))

    def test_no_values_is_an_error(self):
        with self.assertRaises(ValueError):
            mean_ci95([])


if __name__ == '__main__':
    unittest.main()
