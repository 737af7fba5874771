-- Dynamic filtering (table.optimizer.dynamic-filtering.enabled): a join's
-- build keys prune the partitions of a probe table partitioned on the key
-- (when the build side is filtered) and skip the Parquet row groups and ORC
-- stripes outside the keys' range.  EXPLAIN ANALYZE counts what was read:
-- partitions=N/M on the probe's Scan, row_groups and stripes skipped under
-- it; with the option off the same rows come from every partition.
CREATE TABLE fact (id INT, v BIGINT) PARTITIONED BY (k INT) STORED AS PARQUET;
INSERT INTO fact PARTITION (k=1) VALUES (1, 10), (2, 11);
INSERT INTO fact PARTITION (k=2) VALUES (3, 20), (4, 21);
INSERT INTO fact PARTITION (k=3) VALUES (5, 30);
INSERT INTO fact PARTITION (k=4) VALUES (6, 40);
INSERT INTO fact PARTITION (k=5) VALUES (7, 50);
INSERT INTO fact PARTITION (k=6) VALUES (8, 60), (9, 61);
INSERT INTO fact SELECT 10, 70, CAST(NULL AS INT);
CREATE TABLE dim (k INT, name STRING, v BIGINT) STORED AS TEXTFILE;
INSERT INTO dim VALUES (1, 'one', 10), (2, 'two', 21), (3, 'three', 30), (4, 'four', 40), (NULL, 'none', NULL), (6, 'six', 61), (7, 'seven', 99);
CREATE TABLE ofact (id INT, v BIGINT) STORED AS ORC;
INSERT INTO ofact VALUES (1, 10), (2, 11);
INSERT INTO ofact VALUES (3, 20), (4, 21);
INSERT INTO ofact VALUES (5, 30), (6, 31);
INSERT INTO ofact VALUES (7, 40), (8, 41);
CREATE TABLE wide (k INT) STORED AS TEXTFILE;
INSERT INTO wide VALUES (1), (2), (3), (4), (5), (6), (7), (8), (9), (10), (11), (12), (13), (14), (15), (16), (17), (18), (19), (20), (21), (22), (23), (24), (25), (26), (27), (28), (29), (30), (31), (32), (33), (34), (35), (36), (37), (38), (39), (40), (41), (42), (43), (44), (45), (46), (47), (48), (49), (50), (51), (52), (53), (54), (55), (56), (57), (58), (59), (60), (61), (62), (63), (64), (65), (66), (67), (68), (69), (70), (71), (72), (73), (74), (75), (76), (77), (78), (79), (80), (81), (82), (83), (84), (85), (86), (87), (88), (89), (90), (91), (92), (93), (94), (95), (96), (97), (98), (99), (100), (101), (102), (103), (104), (105), (106), (107), (108), (109), (110), (111), (112), (113), (114), (115), (116), (117), (118), (119), (120), (121), (122), (123), (124), (125), (126), (127), (128), (129), (130), (131), (132), (133), (134), (135), (136), (137), (138), (139), (140), (141), (142), (143), (144), (145), (146), (147), (148), (149), (150), (151), (152), (153), (154), (155), (156), (157), (158), (159), (160), (161), (162), (163), (164), (165), (166), (167), (168), (169), (170), (171), (172), (173), (174), (175), (176), (177), (178), (179), (180), (181), (182), (183), (184), (185), (186), (187), (188), (189), (190), (191), (192), (193), (194), (195), (196), (197), (198), (199), (200), (201), (202), (203), (204), (205), (206), (207), (208), (209), (210), (211), (212), (213), (214), (215), (216), (217), (218), (219), (220), (221), (222), (223), (224), (225), (226), (227), (228), (229), (230), (231), (232), (233), (234), (235), (236), (237), (238), (239), (240), (241), (242), (243), (244), (245), (246), (247), (248), (249), (250), (251), (252), (253), (254), (255), (256), (257), (258), (259), (260), (261), (262), (263), (264), (265), (266), (267), (268), (269), (270), (271), (272), (273), (274), (275), (276), (277), (278), (279), (280), (281), (282), (283), (284), (285), (286), (287), (288), (289), (290), (291), (292), (293), (294), (295), (296), (297), (298), (299), (300), (301), (302), (303), (304), (305), (306), (307), (308), (309), (310), (311), (312), (313), (314), (315), (316), (317), (318), (319), (320), (321), (322), (323), (324), (325), (326), (327), (328), (329), (330), (331), (332), (333), (334), (335), (336), (337), (338), (339), (340), (341), (342), (343), (344), (345), (346), (347), (348), (349), (350), (351), (352), (353), (354), (355), (356), (357), (358), (359), (360), (361), (362), (363), (364), (365), (366), (367), (368), (369), (370), (371), (372), (373), (374), (375), (376), (377), (378), (379), (380), (381), (382), (383), (384), (385), (386), (387), (388), (389), (390), (391), (392), (393), (394), (395), (396), (397), (398), (399), (400), (401), (402), (403), (404), (405), (406), (407), (408), (409), (410), (411), (412), (413), (414), (415), (416), (417), (418), (419), (420), (421), (422), (423), (424), (425), (426), (427), (428), (429), (430), (431), (432), (433), (434), (435), (436), (437), (438), (439), (440), (441), (442), (443), (444), (445), (446), (447), (448), (449), (450), (451), (452), (453), (454), (455), (456), (457), (458), (459), (460), (461), (462), (463), (464), (465), (466), (467), (468), (469), (470), (471), (472), (473), (474), (475), (476), (477), (478), (479), (480), (481), (482), (483), (484), (485), (486), (487), (488), (489), (490), (491), (492), (493), (494), (495), (496), (497), (498), (499), (500), (501), (502), (503), (504), (505), (506), (507), (508), (509), (510), (511), (512), (513), (514), (515), (516), (517), (518), (519), (520), (521), (522), (523), (524), (525), (526), (527), (528), (529), (530), (531), (532), (533), (534), (535), (536), (537), (538), (539), (540), (541), (542), (543), (544), (545), (546), (547), (548), (549), (550), (551), (552), (553), (554), (555), (556), (557), (558), (559), (560), (561), (562), (563), (564), (565), (566), (567), (568), (569), (570), (571), (572), (573), (574), (575), (576), (577), (578), (579), (580), (581), (582), (583), (584), (585), (586), (587), (588), (589), (590), (591), (592), (593), (594), (595), (596), (597), (598), (599), (600), (601), (602), (603), (604), (605), (606), (607), (608), (609), (610), (611), (612), (613), (614), (615), (616), (617), (618), (619), (620), (621), (622), (623), (624), (625), (626), (627), (628), (629), (630), (631), (632), (633), (634), (635), (636), (637), (638), (639), (640), (641), (642), (643), (644), (645), (646), (647), (648), (649), (650), (651), (652), (653), (654), (655), (656), (657), (658), (659), (660), (661), (662), (663), (664), (665), (666), (667), (668), (669), (670), (671), (672), (673), (674), (675), (676), (677), (678), (679), (680), (681), (682), (683), (684), (685), (686), (687), (688), (689), (690), (691), (692), (693), (694), (695), (696), (697), (698), (699), (700), (701), (702), (703), (704), (705), (706), (707), (708), (709), (710), (711), (712), (713), (714), (715), (716), (717), (718), (719), (720), (721), (722), (723), (724), (725), (726), (727), (728), (729), (730), (731), (732), (733), (734), (735), (736), (737), (738), (739), (740), (741), (742), (743), (744), (745), (746), (747), (748), (749), (750), (751), (752), (753), (754), (755), (756), (757), (758), (759), (760), (761), (762), (763), (764), (765), (766), (767), (768), (769), (770), (771), (772), (773), (774), (775), (776), (777), (778), (779), (780), (781), (782), (783), (784), (785), (786), (787), (788), (789), (790), (791), (792), (793), (794), (795), (796), (797), (798), (799), (800), (801), (802), (803), (804), (805), (806), (807), (808), (809), (810), (811), (812), (813), (814), (815), (816), (817), (818), (819), (820), (821), (822), (823), (824), (825), (826), (827), (828), (829), (830), (831), (832), (833), (834), (835), (836), (837), (838), (839), (840), (841), (842), (843), (844), (845), (846), (847), (848), (849), (850), (851), (852), (853), (854), (855), (856), (857), (858), (859), (860), (861), (862), (863), (864), (865), (866), (867), (868), (869), (870), (871), (872), (873), (874), (875), (876), (877), (878), (879), (880), (881), (882), (883), (884), (885), (886), (887), (888), (889), (890), (891), (892), (893), (894), (895), (896), (897), (898), (899), (900), (901), (902), (903), (904), (905), (906), (907), (908), (909), (910), (911), (912), (913), (914), (915), (916), (917), (918), (919), (920), (921), (922), (923), (924), (925), (926), (927), (928), (929), (930), (931), (932), (933), (934), (935), (936), (937), (938), (939), (940), (941), (942), (943), (944), (945), (946), (947), (948), (949), (950), (951), (952), (953), (954), (955), (956), (957), (958), (959), (960), (961), (962), (963), (964), (965), (966), (967), (968), (969), (970), (971), (972), (973), (974), (975), (976), (977), (978), (979), (980), (981), (982), (983), (984), (985), (986), (987), (988), (989), (990), (991), (992), (993), (994), (995), (996), (997), (998), (999), (1000), (1001), (1002), (1003), (1004), (1005), (1006), (1007), (1008), (1009), (1010), (1011), (1012), (1013), (1014), (1015), (1016), (1017), (1018), (1019), (1020), (1021), (1022), (1023), (1024), (1025), (1026), (1027), (1028), (1029), (1030), (1031), (1032), (1033), (1034), (1035), (1036), (1037), (1038), (1039), (1040), (1041), (1042), (1043), (1044), (1045), (1046), (1047), (1048), (1049), (1050), (1051), (1052), (1053), (1054), (1055), (1056), (1057), (1058), (1059), (1060), (1061), (1062), (1063), (1064), (1065), (1066), (1067), (1068), (1069), (1070), (1071), (1072), (1073), (1074), (1075), (1076), (1077), (1078), (1079), (1080), (1081), (1082), (1083), (1084), (1085), (1086), (1087), (1088), (1089), (1090), (1091), (1092), (1093), (1094), (1095), (1096), (1097), (1098), (1099), (1100);
-- run
SHOW PARTITIONS fact;
-- partitions: the build side keeps k 1 and 4 (NULL keys match nothing), so
-- 2 of the 7 partitions are read, the default one not
-- run
EXPLAIN SELECT f.id, d.name FROM fact f JOIN dim d ON f.k = d.k WHERE d.name IN ('one', 'four', 'none');
-- run
EXPLAIN ANALYZE SELECT f.id, d.name FROM fact f JOIN dim d ON f.k = d.k WHERE d.name IN ('one', 'four', 'none');
-- run
SELECT f.id, f.k, d.name FROM fact f JOIN dim d ON f.k = d.k WHERE d.name IN ('one', 'four', 'none') ORDER BY f.id;
-- the same rows with the option off: every partition read
-- run
SET 'table.optimizer.dynamic-filtering.enabled' = 'false';
EXPLAIN ANALYZE SELECT f.id, d.name FROM fact f JOIN dim d ON f.k = d.k WHERE d.name IN ('one', 'four', 'none');
SELECT f.id, f.k, d.name FROM fact f JOIN dim d ON f.k = d.k WHERE d.name IN ('one', 'four', 'none') ORDER BY f.id;
-- a build side that is the whole table prunes no partitions (Flink's rule)
-- run
EXPLAIN ANALYZE SELECT count(*) AS n FROM fact f JOIN dim d ON f.k = d.k;
-- row groups: the build keys of a data column (10 to 40) skip the files of
-- partitions 5, 6 and the default one by their statistics
-- run
EXPLAIN ANALYZE SELECT f.id, d.name FROM fact f JOIN dim d ON f.v = d.v WHERE d.k < 5;
-- run
SELECT f.id, f.v, d.name FROM fact f JOIN dim d ON f.v = d.v WHERE d.k < 5 ORDER BY f.id;
-- run
SET 'table.optimizer.dynamic-filtering.enabled' = 'false';
SELECT f.id, f.v, d.name FROM fact f JOIN dim d ON f.v = d.v WHERE d.k < 5 ORDER BY f.id;
-- both at once: partitions by k, row groups by v
-- run
EXPLAIN ANALYZE SELECT f.id FROM fact f JOIN dim d ON f.k = d.k AND f.v = d.v WHERE d.name <> 'six';
-- run
SELECT f.id, d.name FROM fact f JOIN dim d ON f.k = d.k AND f.v = d.v WHERE d.name <> 'six' ORDER BY f.id;
-- ORC stripes: keys 20 to 21 leave one stripe of four
-- run
EXPLAIN ANALYZE SELECT o.id FROM ofact o JOIN dim d ON o.v = d.v WHERE d.name = 'two';
-- run
SELECT o.id, o.v FROM ofact o JOIN dim d ON o.v = d.v WHERE d.name IN ('two', 'three') ORDER BY o.id;
-- a semi join filters its probe side; so does an outer join whose
-- preserved side builds (dim LEFT JOIN fact: dim builds)
-- run
EXPLAIN ANALYZE SELECT f.id FROM fact f LEFT SEMI JOIN dim d ON f.k = d.k AND d.name = 'two';
-- run
EXPLAIN ANALYZE SELECT d.name, f.id FROM dim d LEFT JOIN fact f ON f.k = d.k WHERE d.name IN ('six', 'none');
-- run
SELECT d.name, f.id FROM dim d LEFT JOIN fact f ON f.k = d.k WHERE d.name IN ('six', 'none', 'seven') ORDER BY d.name, f.id;
-- no dynamic filter where the probe side's unmatched rows count (the
-- preserved side of an outer join, the left of an anti join), for a
-- null-safe key (its NULLs match) or for a key that is a cast of the column
-- run
EXPLAIN ANALYZE SELECT f.id, d.name FROM fact f LEFT JOIN dim d ON f.k = d.k AND d.name = 'two';
-- run
SELECT f.id, d.name FROM fact f LEFT JOIN dim d ON f.k = d.k AND d.name = 'two' ORDER BY f.id;
-- run
EXPLAIN ANALYZE SELECT f.id FROM fact f LEFT ANTI JOIN dim d ON f.k = d.k AND d.name = 'two';
-- run
SELECT f.id FROM fact f LEFT ANTI JOIN dim d ON f.k = d.k AND d.name = 'two' ORDER BY f.id;
-- run
EXPLAIN SELECT f.id FROM fact f FULL JOIN dim d ON f.k = d.k WHERE d.name = 'two';
-- run
EXPLAIN SELECT f.id FROM fact f JOIN dim d ON f.k <=> d.k WHERE d.name = 'none';
-- run
SELECT f.id, d.name FROM fact f JOIN dim d ON f.k <=> d.k WHERE d.name = 'none';
-- run
EXPLAIN SELECT f.id FROM fact f JOIN dim d ON CAST(f.k AS BIGINT) = d.v WHERE d.name = 'one';
-- a build side without keys: every partition pruned
-- run
EXPLAIN ANALYZE SELECT f.id FROM fact f JOIN dim d ON f.k = d.k WHERE d.name = 'nobody';
-- one key is an equality, which ORC's bloom filters test: v 21 lies in the
-- range of every file of obloom and in the bloom filter of one: 2 of 3
-- stripes skipped (the range v >= 21 AND v <= 21 skips none)
-- run
CREATE TABLE obloom (id INT, v BIGINT) STORED AS ORC TBLPROPERTIES ('orc.bloom.filter.columns'='v');
INSERT INTO obloom VALUES (1, 10), (2, 30);
INSERT INTO obloom VALUES (3, 20), (4, 21), (5, 22);
INSERT INTO obloom VALUES (6, 0), (7, 99);
-- run
EXPLAIN ANALYZE SELECT o.id FROM obloom o JOIN dim d ON o.v = d.v WHERE d.name = 'two';
-- run
SELECT o.id, o.v FROM obloom o JOIN dim d ON o.v = d.v WHERE d.name = 'two';
-- more than 1024 keys (3 to 1100): their range prunes partitions 1, 2 and
-- the default one of 8
-- run
INSERT INTO fact PARTITION (k=1000) SELECT k, k FROM wide;
-- run
EXPLAIN ANALYZE SELECT count(*) AS n FROM fact f JOIN wide w ON f.k = w.k WHERE w.k > 2;
-- run
SELECT count(*) AS n FROM fact f JOIN wide w ON f.k = w.k WHERE w.k > 2;
-- run
SET 'table.optimizer.dynamic-filtering.enabled' = 'false';
SELECT count(*) AS n FROM fact f JOIN wide w ON f.k = w.k WHERE w.k > 2;
-- the probe side's own conditions (a partition filter, a filter of rows on
-- the reader threads) stay, AND-ed with the dynamic filter
-- run
EXPLAIN ANALYZE SELECT f.id FROM fact f JOIN dim d ON f.k = d.k WHERE f.k < 5 AND f.id <> 3 AND d.name = 'two';
-- run
SELECT f.id, f.k FROM fact f JOIN dim d ON f.k = d.k WHERE f.k < 5 AND f.id <> 3 AND d.name = 'two' ORDER BY f.id;
-- a string partition key: its default partition reads as its name, and is
-- pruned as the rows read it
-- run
CREATE TABLE sfact (id INT) PARTITIONED BY (s STRING) STORED AS PARQUET;
INSERT INTO sfact PARTITION (s='a') VALUES (1);
INSERT INTO sfact PARTITION (s='b') VALUES (2);
INSERT INTO sfact SELECT 3, CAST(NULL AS STRING);
CREATE TABLE sdim (s STRING, tag STRING) STORED AS TEXTFILE;
INSERT INTO sdim VALUES ('b', 'bee'), ('__HIVE_DEFAULT_PARTITION__', 'default'), (NULL, 'null'), ('c', 'sea');
-- run
EXPLAIN ANALYZE SELECT f.id, d.tag FROM sfact f JOIN sdim d ON f.s = d.s WHERE d.tag IN ('bee', 'default', 'null');
-- run
SELECT f.id, f.s, d.tag FROM sfact f JOIN sdim d ON f.s = d.s WHERE d.tag IN ('bee', 'default', 'null') ORDER BY f.id;
-- run
SET 'table.optimizer.dynamic-filtering.enabled' = 'false';
SELECT f.id, f.s, d.tag FROM sfact f JOIN sdim d ON f.s = d.s WHERE d.tag IN ('bee', 'default', 'null') ORDER BY f.id;
-- a DATE data column's range, a BIGINT partition key's set
-- run
CREATE TABLE dfact (id INT, d DATE) PARTITIONED BY (b BIGINT) STORED AS PARQUET;
INSERT INTO dfact PARTITION (b=10000000000) VALUES (1, DATE '2024-01-01'), (2, DATE '2024-01-02');
INSERT INTO dfact PARTITION (b=20000000000) VALUES (3, DATE '2024-02-01');
INSERT INTO dfact PARTITION (b=30000000000) VALUES (4, DATE '2024-03-01');
CREATE TABLE ddim (d DATE, b BIGINT, tag STRING) STORED AS TEXTFILE;
INSERT INTO ddim VALUES (DATE '2024-01-02', 20000000000, 'x'), (DATE '2024-02-01', 20000000000, 'y'), (NULL, NULL, 'z');
-- run
EXPLAIN ANALYZE SELECT f.id FROM dfact f JOIN ddim x ON f.d = x.d;
-- run
SELECT f.id, f.d, x.tag FROM dfact f JOIN ddim x ON f.d = x.d ORDER BY f.id;
-- run
EXPLAIN ANALYZE SELECT f.id FROM dfact f JOIN ddim x ON f.b = x.b WHERE x.tag <> 'q';
-- run
SELECT f.id, f.b, x.tag FROM dfact f JOIN ddim x ON f.b = x.b WHERE x.tag <> 'q' ORDER BY f.id, x.tag;
-- the keys' set filters the probe's rows, also under an Aggregate grouping
-- by the key and in a derived table: the sub-query groups only the keys
-- the build side has (the shape of a decorrelated scalar sub-query, whose
-- LEFT JOIN builds the smaller outer side)
-- run
CREATE TABLE gfact (k INT, q INT) STORED AS PARQUET;
INSERT INTO gfact VALUES (1, 10), (1, 20), (2, 5), (3, 7), (3, NULL), (NULL, 8), (4, 1), (5, 2), (5, 3);
INSERT INTO gfact SELECT k % 100 + 10, k FROM wide;
-- run
EXPLAIN ANALYZE SELECT d.k, s.m FROM dim d LEFT JOIN (SELECT k, max(q) AS m FROM gfact GROUP BY k) s ON d.k = s.k WHERE d.name IN ('one', 'three', 'none');
-- run
SELECT d.k, s.m FROM dim d LEFT JOIN (SELECT k, max(q) AS m FROM gfact GROUP BY k) s ON d.k = s.k WHERE d.name IN ('one', 'three', 'none') ORDER BY d.k;
-- run
EXPLAIN ANALYZE SELECT count(*) AS n FROM dim d WHERE d.name <> 'two' AND d.v > (SELECT sum(q) FROM gfact g WHERE g.k = d.k);
-- run
SELECT d.k, d.v FROM dim d WHERE d.name <> 'two' AND d.v > (SELECT sum(q) FROM gfact g WHERE g.k = d.k) ORDER BY d.k;
-- run
SET 'table.optimizer.dynamic-filtering.enabled' = 'false';
SELECT d.k, d.v FROM dim d WHERE d.name <> 'two' AND d.v > (SELECT sum(q) FROM gfact g WHERE g.k = d.k) ORDER BY d.k;
-- Through a join below the probe side, to the side the key comes from
-- when NULLs do not extend it: fact's partitions are pruned under a LEFT
-- join it preserves; a key of the NULL-extended side filters nothing
-- run
EXPLAIN SELECT d.name, s.id, s.n2 FROM (SELECT f.id, f.k, d2.name AS n2 FROM fact f LEFT JOIN dim d2 ON f.id = d2.k) s JOIN dim d ON s.k = d.k WHERE d.name IN ('one', 'four');
SELECT d.name, s.id, s.n2 FROM (SELECT f.id, f.k, d2.name AS n2 FROM fact f LEFT JOIN dim d2 ON f.id = d2.k) s JOIN dim d ON s.k = d.k WHERE d.name IN ('one', 'four') ORDER BY s.id;
EXPLAIN SELECT d.name, s.id FROM (SELECT f.id, d2.k AS k2 FROM fact f LEFT JOIN dim d2 ON f.id = d2.k) s JOIN dim d ON s.k2 = d.k WHERE d.name IN ('one', 'four');
SELECT d.name, s.id FROM (SELECT f.id, d2.k AS k2 FROM fact f LEFT JOIN dim d2 ON f.id = d2.k) s JOIN dim d ON s.k2 = d.k WHERE d.name IN ('one', 'four') ORDER BY s.id;
